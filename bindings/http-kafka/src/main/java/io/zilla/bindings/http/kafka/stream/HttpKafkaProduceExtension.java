/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.util.function.Consumer;

import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedProduceDataExFW;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The {@code KafkaDataEx merged produce} of a record's first fragment, one per worker, built without a lambda per
 * record or header: the builders' mutators are held here and read what {@link #reset} and {@link #header} set just
 * before {@link #build} (the mutators that captured each record's values were about a tenth of what a PUT allocated).
 */
final class HttpKafkaProduceExtension
{
    private final KafkaDataExFW.Builder dataExRW = new KafkaDataExFW.Builder();
    // the key's and the headers' bytes, copied here as they are given: a record's are a few dozen bytes, and a copy
    // lets each come from where it is (the request's head, a route's constant, a resolved template) without an array
    private final ExpandableArrayBuffer staged = new ExpandableArrayBuffer(512);
    private int stagedLength;

    private int deferred;
    private int keyLength;
    // in staged
    private final HttpKafkaHeaderTable headers = new HttpKafkaHeaderTable();
    private int header;

    private final Consumer<KafkaBytesFW.Builder> keyValue = this::key;
    private final Consumer<KafkaBytesFW.Builder> headerName = x -> x.value(staged, headers.nameOffset(header),
        headers.nameLength(header));
    private final Consumer<KafkaBytesFW.Builder> headerValue = x -> x.value(staged, headers.valueOffset(header),
        headers.valueLength(header));
    private final Consumer<KafkaHeaderFW.Builder> headerItem = h -> h.name(headerName).value(headerValue);
    private final Consumer<KafkaMergedProduceDataExFW.Builder> produce = this::produce;
    private final Consumer<KafkaMergedDataExFW.Builder> merged = m -> m.produce(produce);

    /** Begins a record's extension: the bytes still to come after its first fragment, no key yet. */
    void reset(int deferred)
    {
        this.deferred = deferred;
        this.keyLength = -1;
        this.stagedLength = 0;
        headers.clear();
    }

    /** The record's key, at 0 of what is staged: given first, before any header. */
    void key(DirectBuffer buffer, int offset, int length)
    {
        assert stagedLength == 0;
        keyLength = length;
        stage(buffer, offset, length);
    }

    void header(byte[] name, byte[] value)
    {
        headers.add(stage(name), name.length, stage(value), value.length);
    }

    void header(byte[] name, DirectBuffer value, int offset, int length)
    {
        headers.add(stage(name), name.length, stage(value, offset, length), length);
    }

    void header(DirectBuffer buffer, int nameOffset, int nameLength, int valueOffset, int valueLength)
    {
        headers.add(stage(buffer, nameOffset, nameLength), nameLength, stage(buffer, valueOffset, valueLength), valueLength);
    }

    /** Writes the extension from 0 in {@code buffer}; returns its length. */
    int build(MutableDirectBuffer buffer, int typeId)
    {
        return dataExRW.wrap(buffer, 0, buffer.capacity())
            .typeId(typeId)
            .merged(merged)
            .build()
            .sizeof();
    }

    private int stage(byte[] bytes)
    {
        final int at = stagedLength;
        staged.putBytes(at, bytes);
        stagedLength += bytes.length;
        return at;
    }

    private int stage(DirectBuffer buffer, int offset, int length)
    {
        final int at = stagedLength;
        staged.putBytes(at, buffer, offset, length);
        stagedLength += length;
        return at;
    }

    private void produce(KafkaMergedProduceDataExFW.Builder builder)
    {
        builder.deferred(deferred).timestamp(0L).partitionId(-1);
        builder.key(keyValue);
        for (header = 0; header < headers.count(); header++)
        {
            builder.headersItem(headerItem);
        }
    }

    private void key(KafkaBytesFW.Builder builder)
    {
        if (keyLength >= 0)
        {
            builder.value(staged, 0, keyLength);
        }
    }
}
