/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.KAFKA_TYPE_ID;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.zilla.engine.test.TestStream;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaIsolation;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import io.zilla.specs.kafka.types.stream.KafkaMergedFetchDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Builds a MERGED stream's extensions for a test and reads back the records and progress the stream got. */
public final class KafkaMergedStreams
{
    /** The partition id of the default offset in a merged Begin's partitions. */
    public static final int DEFAULT_PARTITION = -1;

    private KafkaMergedStreams()
    {
    }

    /** A record as a merged fetch Data's extension tells it; the value is in the stream's payload bytes. */
    public record Merged(int partition, long offset, long timestamp, String key, List<String> headers, int deferred,
        Map<Integer, Long> progress)
    {
    }

    /**
     * A MERGED Begin extension: the start offset per partition id ({@link #DEFAULT_PARTITION} for the others),
     * filters as an OR of ANDs.
     */
    public static byte[] mergedBeginEx(String topic, KafkaMergedCapabilities capabilities, Map<Integer, Long> partitions,
        List<List<KafkaFetchStreams.Condition>> filters, KafkaAckMode ackMode)
    {
        return mergedBeginEx(topic, capabilities, partitions, filters, KafkaIsolation.READ_UNCOMMITTED, ackMode);
    }

    /** A MERGED Begin extension with the isolation given. */
    public static byte[] mergedBeginEx(String topic, KafkaMergedCapabilities capabilities, Map<Integer, Long> partitions,
        List<List<KafkaFetchStreams.Condition>> filters, KafkaIsolation isolation, KafkaAckMode ackMode)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[8192]);
        final int limit = new KafkaBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KAFKA_TYPE_ID)
            .merged(m ->
            {
                m.capabilities(capabilities).topic(topic);
                partitions.forEach((id, offset) -> m.partitionsItem(p -> p.partitionId(id).partitionOffset(offset)));
                for (List<KafkaFetchStreams.Condition> filter : filters)
                {
                    m.filtersItem(i ->
                    {
                        for (KafkaFetchStreams.Condition condition : filter)
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
                m.isolation(isolation).ackMode(ackMode);
            })
            .build()
            .limit();
        return bytes(buffer, limit);
    }

    /** A merged produce Data extension: partition -1 lets the binding choose; a null key is Kafka's null. */
    public static byte[] mergedProduceDataEx(int deferred, long timestamp, int partitionId, byte[] key,
        List<KafkaProduceStreams.Header> headers)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[8192]);
        final KafkaDataExFW dataEx = new KafkaDataExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KAFKA_TYPE_ID)
            .merged(m -> m.produce(p ->
            {
                p.deferred(deferred).timestamp(timestamp).partitionId(partitionId);
                p.key(k ->
                {
                    if (key != null)
                    {
                        k.value(key);
                    }
                });
                for (KafkaProduceStreams.Header header : headers)
                {
                    p.headersItem(h -> h
                        .name(n -> n.value(header.name().getBytes(UTF_8)))
                        .value(v ->
                        {
                            if (header.value() != null)
                            {
                                v.value(header.value());
                            }
                        }));
                }
            }))
            .build();
        return bytes(buffer, dataEx.sizeof());
    }

    /** The records of the stream's Data frames that begin a record (those with an extension), in order. */
    public static List<Merged> records(TestStream stream)
    {
        final List<Merged> records = new ArrayList<>();
        final List<byte[]> extensions = stream.extensions();
        for (int index : KafkaClientStreams.indexes(stream, "DATA"))
        {
            final byte[] bytes = extensions.get(index);
            if (bytes.length > 0)
            {
                final KafkaDataExFW dataEx = new KafkaDataExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
                final KafkaMergedFetchDataExFW fetch = dataEx.merged().fetch();
                final List<String> headers = new ArrayList<>();
                fetch.headers().forEach(h -> headers.add(text(h.name()) + "=" + text(h.value())));
                final Map<Integer, Long> progress = new TreeMap<>();
                fetch.progress().forEach(p -> progress.put(p.partitionId(), p.partitionOffset()));
                records.add(new Merged(fetch.partition().partitionId(), fetch.partition().partitionOffset(),
                    fetch.timestamp(), text(fetch.key()), headers, fetch.deferred(), progress));
            }
        }
        return records;
    }

    /** The progress of the last Data or Flush the stream got: the partitions' next offsets, empty when none came. */
    public static Map<Integer, Long> lastProgress(TestStream stream)
    {
        final Map<Integer, Long> progress = new TreeMap<>();
        final List<String> frames = stream.frames();
        final List<byte[]> extensions = stream.extensions();
        for (int i = frames.size() - 1; i >= 0 && progress.isEmpty(); i--)
        {
            final byte[] bytes = extensions.get(i);
            if (frames.get(i).startsWith("DATA ") && bytes.length > 0)
            {
                final KafkaDataExFW dataEx = new KafkaDataExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
                dataEx.merged().fetch().progress().forEach(p -> progress.put(p.partitionId(), p.partitionOffset()));
            }
            else if (frames.get(i).startsWith("FLUSH "))
            {
                final KafkaFlushExFW flushEx = new KafkaFlushExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
                flushEx.merged().progress().forEach(p -> progress.put(p.partitionId(), p.partitionOffset()));
            }
        }
        return progress;
    }

    /** The progress of every merged Flush the stream got, in order. */
    public static List<Map<Integer, Long>> flushes(TestStream stream)
    {
        final List<Map<Integer, Long>> flushes = new ArrayList<>();
        final List<byte[]> extensions = stream.extensions();
        for (int index : KafkaClientStreams.indexes(stream, "FLUSH"))
        {
            final byte[] bytes = extensions.get(index);
            final KafkaFlushExFW flushEx = new KafkaFlushExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
            final Map<Integer, Long> progress = new TreeMap<>();
            flushEx.merged().progress().forEach((KafkaOffsetFW p) -> progress.put(p.partitionId(), p.partitionOffset()));
            flushes.add(progress);
        }
        return flushes;
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

    private static byte[] bytes(MutableDirectBuffer buffer, int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
