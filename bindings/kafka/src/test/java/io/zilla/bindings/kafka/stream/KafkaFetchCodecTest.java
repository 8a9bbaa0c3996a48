/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;

/** The hand-written Fetch v12 request and response, cross-checked with kafka-clients' own message classes. */
class KafkaFetchCodecTest
{
    private static final byte[] TOPIC = "orders".getBytes(UTF_8);

    @Test
    void shouldWriteWhatKafkaClientsReads()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        int limit = KafkaFetchCodec.encodeHead(buffer, 0, 500, 64000, 1, 2);
        limit = KafkaFetchCodec.encodeTopic(buffer, limit, TOPIC, 2);
        limit = KafkaFetchCodec.encodePartition(buffer, limit, 3, 1234L, 64000);
        limit = KafkaFetchCodec.encodePartition(buffer, limit, 5, 99L, 64000);
        limit = KafkaFetchCodec.encodeTopicEnd(buffer, limit);
        limit = KafkaFetchCodec.encodeTopic(buffer, limit, "other".getBytes(UTF_8), 1);
        limit = KafkaFetchCodec.encodePartition(buffer, limit, 0, 7L, 64000);
        limit = KafkaFetchCodec.encodeTopicEnd(buffer, limit);
        limit = KafkaFetchCodec.encodeTail(buffer, limit);
        final byte[] bytes = new byte[limit];
        buffer.getBytes(0, bytes);

        final FetchRequestData request = new FetchRequestData(
            new ByteBufferAccessor(ByteBuffer.wrap(bytes)), KafkaFetchCodec.VERSION);
        assertEquals(-1, request.replicaId());
        assertEquals(500, request.maxWaitMs());
        assertEquals(1, request.minBytes());
        assertEquals(64000, request.maxBytes());
        assertEquals(1, request.isolationLevel());
        assertEquals(0, request.sessionId());
        assertEquals(-1, request.sessionEpoch());
        assertEquals(2, request.topics().size());
        assertEquals("orders", request.topics().get(0).topic());
        final FetchRequestData.FetchPartition partition = request.topics().get(0).partitions().get(0);
        assertEquals(3, partition.partition());
        assertEquals(1234L, partition.fetchOffset());
        assertEquals(64000, partition.partitionMaxBytes());
        assertEquals(-1, partition.currentLeaderEpoch());
        assertEquals(5, request.topics().get(0).partitions().get(1).partition());
        assertEquals(99L, request.topics().get(0).partitions().get(1).fetchOffset());
        assertEquals("other", request.topics().get(1).topic());
        assertEquals(7L, request.topics().get(1).partitions().get(0).fetchOffset());
        assertTrue(request.forgottenTopicsData().isEmpty());
        assertEquals("", request.rackId());
        assertEquals(bytes.length, request.size(new ObjectSerializationCache(),
            KafkaFetchCodec.VERSION), "every byte read");
    }

    @Test
    void shouldReadEveryPartitionInPlace()
    {
        final byte[] records = "not really batches, bytes as they come".getBytes(UTF_8);
        final FetchResponseData response = new FetchResponseData()
            .setResponses(List.of(
                topic("other", partition(3, records)),
                topic("orders", partition(1, new byte[] {9, 9}), partition(3, records)
                    .setCurrentLeader(new FetchResponseData.LeaderIdAndEpoch().setLeaderId(7).setLeaderEpoch(2))
                    .setAbortedTransactions(List.of(
                        new FetchResponseData.AbortedTransaction().setProducerId(42L).setFirstOffset(100L),
                        new FetchResponseData.AbortedTransaction().setProducerId(43L).setFirstOffset(105L))))));
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[4096]);
        final int limit = KafkaControlMessages.write(response, KafkaFetchCodec.VERSION, buffer, 16, buffer.capacity());

        final KafkaFetchCodec codec = new KafkaFetchCodec();
        final List<String> seen = new ArrayList<>();
        final boolean readable = codec.decode(buffer, 16, limit, (b, topicOffset, topicLength, partitionId) ->
        {
            final String topic = b.getStringWithoutLengthUtf8(topicOffset, topicLength);
            seen.add(topic + "-" + partitionId);
            if (topic.equals("orders") && partitionId == 3)
            {
                assertEquals(0, codec.error());
                assertEquals(200L, codec.highWatermark());
                assertEquals(150L, codec.lastStableOffset());
                assertEquals(2, codec.aborted());
                assertEquals(42L, codec.abortedProducerId(0));
                assertEquals(100L, codec.abortedFirstOffset(0));
                assertEquals(43L, codec.abortedProducerId(1));
                assertEquals(105L, codec.abortedFirstOffset(1));
                final byte[] read = new byte[codec.recordsLimit() - codec.recordsOffset()];
                codec.buffer().getBytes(codec.recordsOffset(), read);
                assertArrayEquals(records, read);
            }
            else
            {
                assertEquals(0, codec.aborted());
            }
        });
        assertTrue(readable);
        assertEquals(0, codec.topLevelError());
        assertEquals(List.of("other-3", "orders-1", "orders-3"), seen);
        assertFalse(codec.decode(buffer, 16, limit - 3, (b, o, l, p) ->
        {
        }), "truncated");
    }

    private static FetchResponseData.FetchableTopicResponse topic(String name, FetchResponseData.PartitionData... partitions)
    {
        return new FetchResponseData.FetchableTopicResponse().setTopic(name).setPartitions(List.of(partitions));
    }

    private static FetchResponseData.PartitionData partition(int index, byte[] records)
    {
        return new FetchResponseData.PartitionData()
            .setPartitionIndex(index)
            .setHighWatermark(200L)
            .setLastStableOffset(150L)
            .setLogStartOffset(0L)
            .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(records)));
    }
}
