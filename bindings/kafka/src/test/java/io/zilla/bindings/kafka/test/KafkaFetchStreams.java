/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.test.TestStream;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFetchDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaIsolation;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Builds a FETCH stream's Begin extension for a test and reads back the records and progress the stream got. */
public final class KafkaFetchStreams
{
    public static final long EARLIEST = -2L;
    public static final long LATEST = -1L;

    private KafkaFetchStreams()
    {
    }

    /** One condition of a filter: the key equals, or a header (name, value) is there. */
    public record Condition(String key, String name, String value)
    {
        public static Condition key(String key)
        {
            return new Condition(key, null, null);
        }

        public static Condition header(String name, String value)
        {
            return new Condition(null, name, value);
        }
    }

    /** A record as a fetch Data's extension tells it: the value is in the stream's payload bytes. */
    public record Fetched(long offset, long timestamp, long producerId, String key, List<String> headers, int deferred,
        long stableOffset, long latestOffset)
    {
    }

    public static byte[] fetchBeginEx(String topic, int partition, long offset)
    {
        return fetchBeginEx(topic, partition, offset, false, List.of());
    }

    /** A FETCH Begin extension; {@code filters} is an OR of ANDs. */
    public static byte[] fetchBeginEx(String topic, int partition, long offset, boolean readCommitted,
        List<List<Condition>> filters)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[4096]);
        final int limit = new KafkaBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KafkaClientStreams.KAFKA_TYPE_ID)
            .fetch(f ->
            {
                f.topic(topic).partition(p -> p.partitionId(partition).partitionOffset(offset));
                for (List<Condition> filter : filters)
                {
                    f.filtersItem(i ->
                    {
                        for (Condition condition : filter)
                        {
                            i.conditionsItem(c ->
                            {
                                if (condition.key() != null)
                                {
                                    c.key(k -> k.value(condition.key().getBytes(UTF_8)));
                                }
                                else
                                {
                                    c.header(h -> h.name(n -> n.value(condition.name().getBytes(UTF_8)))
                                        .value(v -> v.value(condition.value().getBytes(UTF_8))));
                                }
                            });
                        }
                    });
                }
                f.isolation(readCommitted ? KafkaIsolation.READ_COMMITTED : KafkaIsolation.READ_UNCOMMITTED);
            })
            .build()
            .limit();
        final byte[] bytes = new byte[limit];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    /** The records of the stream's Data frames that begin a record (those with an extension), in order. */
    public static List<Fetched> records(TestStream stream)
    {
        final List<Fetched> records = new ArrayList<>();
        final List<byte[]> extensions = stream.extensions();
        for (int index : KafkaClientStreams.indexes(stream, "DATA"))
        {
            final byte[] bytes = extensions.get(index);
            if (bytes.length > 0)
            {
                final KafkaDataExFW dataEx = new KafkaDataExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
                final KafkaFetchDataExFW fetch = dataEx.fetch();
                final List<String> headers = new ArrayList<>();
                fetch.headers().forEach(h -> headers.add(text(h.name()) + "=" + text(h.value())));
                records.add(new Fetched(fetch.partition().partitionOffset(), fetch.timestamp(), fetch.producerId(),
                    text(fetch.key()), headers, fetch.deferred(), fetch.partition().stableOffset(),
                    fetch.partition().latestOffset()));
            }
        }
        return records;
    }

    /** The partition offset of the stream's last fetch Flush, or -1 when none came. */
    public static long lastFlushOffset(TestStream stream)
    {
        long offset = -1L;
        final List<byte[]> extensions = stream.extensions();
        for (int index : KafkaClientStreams.indexes(stream, "FLUSH"))
        {
            final byte[] bytes = extensions.get(index);
            final KafkaFlushExFW flushEx = new KafkaFlushExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
            offset = flushEx.fetch().partition().partitionOffset();
        }
        return offset;
    }

    /** The number of Data frames the stream got, fragments included. */
    public static int dataFrames(TestStream stream)
    {
        return KafkaClientStreams.indexes(stream, "DATA").size();
    }

    private static String text(KafkaBytesFW bytes)
    {
        final OctetsFW value = bytes.value();
        String text = null;
        if (value != null)
        {
            final byte[] copy = new byte[value.sizeof()];
            value.buffer().getBytes(value.offset(), copy);
            text = new String(copy, UTF_8);
        }
        return text;
    }
}
