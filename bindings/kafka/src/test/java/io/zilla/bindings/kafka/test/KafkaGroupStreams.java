/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.KAFKA_TYPE_ID;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.indexes;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

import io.zilla.engine.test.TestStream;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaGroupAssignmentFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.consumer.internals.ConsumerProtocol;
import org.apache.kafka.common.TopicPartition;

/**
 * Builds the extensions of GROUP, OFFSET_FETCH and OFFSET_COMMIT streams for a test, and reads what their replies
 * carried: each join's Flush, the assignment Data after it, the committed offsets.
 */
public final class KafkaGroupStreams
{
    private KafkaGroupStreams()
    {
    }

    /** One join as a member's reply Flush told it. */
    public record Join(int generationId, String leaderId, String memberId, Map<String, byte[]> members)
    {
        public boolean leader()
        {
            return leaderId.equals(memberId);
        }
    }

    /** A committed offset as an OFFSET_FETCH reply Data told it. */
    public record Committed(int partitionId, long offset, String metadata)
    {
    }

    public static byte[] groupBeginEx(String groupId, String protocolType, String protocol, int timeout, String instanceId,
        byte[] metadata)
    {
        return build(b -> b.typeId(KAFKA_TYPE_ID)
            .group(g -> g.groupId(groupId)
                .protocolType(protocolType)
                .protocol(protocol)
                .timeout(timeout)
                .instanceId(instanceId)
                .metadata(metadata)));
    }

    public static byte[] offsetFetchBeginEx(String groupId, String topic, int... partitions)
    {
        return build(b -> b.typeId(KAFKA_TYPE_ID)
            .offsetFetch(o ->
            {
                o.groupId(groupId).topic(topic);
                for (int partition : partitions)
                {
                    o.partitionsItem(p -> p.partitionId(partition));
                }
            }));
    }

    public static byte[] offsetCommitBeginEx(String groupId, String memberId, String instanceId, int generationId,
        String topic)
    {
        return build(b -> b.typeId(KAFKA_TYPE_ID)
            .offsetCommit(o -> o.groupId(groupId)
                .memberId(memberId)
                .instanceId(instanceId)
                .generationId(generationId)
                .topic(topic)));
    }

    public static byte[] offsetCommitDataEx(int partitionId, long offset, String metadata, int leaderEpoch)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final KafkaDataExFW dataEx = new KafkaDataExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(KAFKA_TYPE_ID)
            .offsetCommit(o -> o.progress(p -> p.partitionId(partitionId).partitionOffset(offset).metadata(metadata))
                .leaderEpoch(leaderEpoch))
            .build();
        return copy(buffer, dataEx.sizeof());
    }

    /** The leader's initial Data: each member's assignment, as KafkaGroupAssignment entries. */
    public static byte[] assignments(Map<String, byte[]> assignments)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[64 * 1024]);
        final KafkaGroupAssignmentFW.Builder builder = new KafkaGroupAssignmentFW.Builder();
        int limit = 0;
        for (Map.Entry<String, byte[]> entry : assignments.entrySet())
        {
            limit = builder.wrap(buffer, limit, buffer.capacity())
                .memberId(entry.getKey())
                .assignment(entry.getValue())
                .build()
                .limit();
        }
        return copy(buffer, limit);
    }

    /** Every join the member's reply Flush frames told, in order. */
    public static List<Join> joins(TestStream stream)
    {
        final List<Join> joins = new ArrayList<>();
        final List<byte[]> extensions = stream.extensions();
        for (int index : indexes(stream, "FLUSH"))
        {
            final byte[] bytes = extensions.get(index);
            final KafkaFlushExFW flushEx = new KafkaFlushExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
            final Map<String, byte[]> members = new LinkedHashMap<>();
            flushEx.group().members().forEach(m -> members.put(m.memberId().asString(), bytes(m.metadata())));
            joins.add(new Join(flushEx.group().generationId(), flushEx.group().leaderId().asString(),
                flushEx.group().memberId().asString(), members));
        }
        return joins;
    }

    /**
     * The consumer assignment of each generation that got one, by generation: the reply Data frames, each one
     * ConsumerProtocol assignment, read in order from the bytes the stream received.
     */
    public static Map<Integer, List<TopicPartition>> consumerAssignments(TestStream stream)
    {
        final Map<Integer, List<TopicPartition>> assignments = new LinkedHashMap<>();
        final List<String> frames = stream.frames();
        final ByteBuffer received = ByteBuffer.wrap(stream.received());
        final List<Join> joins = joins(stream);
        int flushes = 0;
        for (String frame : frames)
        {
            if (frame.startsWith("FLUSH "))
            {
                flushes++;
            }
            else if (frame.startsWith("DATA ") && received.hasRemaining() && flushes > 0)
            {
                final List<TopicPartition> partitions = ConsumerProtocol.deserializeAssignment(received).partitions();
                assignments.put(joins.get(flushes - 1).generationId(), partitions);
            }
        }
        return assignments;
    }

    /** The committed offsets of the OFFSET_FETCH reply Data. */
    public static List<Committed> committed(TestStream stream)
    {
        final List<Committed> committed = new ArrayList<>();
        final List<byte[]> extensions = stream.extensions();
        for (int index : indexes(stream, "DATA"))
        {
            final byte[] bytes = extensions.get(index);
            final KafkaDataExFW dataEx = new KafkaDataExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
            dataEx.offsetFetch().offsets().forEach((KafkaOffsetFW o) -> committed.add(
                new Committed(o.partitionId(), o.partitionOffset(), o.metadata().asString())));
        }
        return committed;
    }

    private static byte[] build(Consumer<KafkaBeginExFW.Builder> mutator)
    {
        final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[4096]);
        final KafkaBeginExFW.Builder builder = new KafkaBeginExFW.Builder().wrap(buffer, 0, buffer.capacity());
        mutator.accept(builder);
        return copy(buffer, builder.build().sizeof());
    }

    private static byte[] bytes(OctetsFW octets)
    {
        final byte[] bytes = new byte[octets != null ? octets.sizeof() : 0];
        if (octets != null)
        {
            octets.buffer().getBytes(octets.offset(), bytes);
        }
        return bytes;
    }

    private static byte[] copy(MutableDirectBuffer buffer, int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(0, bytes);
        return bytes;
    }
}
