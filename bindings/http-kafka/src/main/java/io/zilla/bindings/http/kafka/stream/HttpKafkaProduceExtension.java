/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import java.util.Arrays;
import java.util.function.Consumer;

import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaMergedProduceDataExFW;
import org.agrona.MutableDirectBuffer;

/**
 * The {@code KafkaDataEx merged produce} of a record's first fragment, one per worker, built without a lambda per
 * record or header: the builders' mutators are held here and read what {@link #reset} and {@link #header} set just
 * before {@link #build} (the mutators that captured each record's values were about a tenth of what a PUT allocated).
 */
final class HttpKafkaProduceExtension
{
    private final KafkaDataExFW.Builder dataExRW = new KafkaDataExFW.Builder();

    private int deferred;
    private byte[] key;
    private byte[][] names = new byte[16][];
    private byte[][] values = new byte[16][];
    private int headers;
    private byte[] name;
    private byte[] value;

    private final Consumer<KafkaBytesFW.Builder> keyValue = this::key;
    private final Consumer<KafkaBytesFW.Builder> headerName = x -> x.value(name);
    private final Consumer<KafkaBytesFW.Builder> headerValue = x -> x.value(value);
    private final Consumer<KafkaHeaderFW.Builder> header = h -> h.name(headerName).value(headerValue);
    private final Consumer<KafkaMergedProduceDataExFW.Builder> produce = this::produce;
    private final Consumer<KafkaMergedDataExFW.Builder> merged = m -> m.produce(produce);

    /** Begins a record's extension: the bytes still to come after its first fragment, its key (null: none). */
    void reset(int deferred, byte[] key)
    {
        this.deferred = deferred;
        this.key = key;
        Arrays.fill(names, 0, headers, null);
        Arrays.fill(values, 0, headers, null);
        this.headers = 0;
    }

    void header(byte[] name, byte[] value)
    {
        if (headers == names.length)
        {
            names = Arrays.copyOf(names, headers << 1);
            values = Arrays.copyOf(values, headers << 1);
        }
        names[headers] = name;
        values[headers] = value;
        headers++;
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

    private void produce(KafkaMergedProduceDataExFW.Builder builder)
    {
        builder.deferred(deferred).timestamp(0L).partitionId(-1);
        builder.key(keyValue);
        for (int i = 0; i < headers; i++)
        {
            name = names[i];
            value = values[i];
            builder.headersItem(header);
        }
        name = null;
        value = null;
    }

    private void key(KafkaBytesFW.Builder builder)
    {
        if (key != null)
        {
            builder.value(key);
        }
    }
}
