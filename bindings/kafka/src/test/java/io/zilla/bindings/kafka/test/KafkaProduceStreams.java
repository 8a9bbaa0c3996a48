/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.KAFKA_TYPE_ID;

import java.util.List;

import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Builds the extensions of PRODUCE and INIT_PRODUCER_ID streams for a test. */
public final class KafkaProduceStreams
{
    /** A header of a record: a name and a value, null for Kafka's null. */
    public record Header(String name, byte[] value)
    {
    }

    private KafkaProduceStreams()
    {
    }

    /** A PRODUCE stream's Begin extension; producer id -1 for a plain producer. */
    public static byte[] produceBeginEx(String topic, int partitionId, long producerId, short producerEpoch,
        KafkaAckMode ackMode)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final KafkaBeginExFW beginEx = new KafkaBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KAFKA_TYPE_ID)
            .produce(p -> p
                .transaction((String) null)
                .producerId(producerId)
                .producerEpoch(producerEpoch)
                .topic(topic)
                .partition(o -> o.partitionId(partitionId).partitionOffset(-1L))
                .ackMode(ackMode))
            .build();
        return bytes(buffer, beginEx.sizeof());
    }

    /** An INIT_PRODUCER_ID stream's Begin extension for a new idempotent producer. */
    public static byte[] initProducerIdBeginEx()
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[256]);
        final KafkaBeginExFW beginEx = new KafkaBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KAFKA_TYPE_ID)
            .initProducerId(i -> i.transaction((String) null).transactionTimeout(60000).producerId(-1L).producerEpoch(-1))
            .build();
        return bytes(buffer, beginEx.sizeof());
    }

    /** A record's Data extension: timestamp (0: now), key (null: Kafka's null), headers; deferred for fragments. */
    public static byte[] produceDataEx(int deferred, long timestamp, byte[] key, List<Header> headers)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[4096]);
        final KafkaDataExFW dataEx = new KafkaDataExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KAFKA_TYPE_ID)
            .produce(p ->
            {
                p.deferred(deferred).timestamp(timestamp).sequence(-1);
                p.key(k ->
                {
                    if (key != null)
                    {
                        k.value(key);
                    }
                });
                for (Header header : headers)
                {
                    p.headersItem(h -> h
                        .name(n -> n.value(header.name().getBytes()))
                        .value(v ->
                        {
                            if (header.value() != null)
                            {
                                v.value(header.value());
                            }
                        }));
                }
            })
            .build();
        return bytes(buffer, dataEx.sizeof());
    }

    private static byte[] bytes(MutableDirectBuffer buffer, int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
