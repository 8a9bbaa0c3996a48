/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.junit.jupiter.api.Test;

/** The hand-written Produce body and response reader, against kafka-clients' own message classes at every version. */
class KafkaProduceRequestsTest
{
    @Test
    void shouldWriteWhatKafkaClientsReads()
    {
        final byte[] topic = "topic-é".getBytes(StandardCharsets.UTF_8);
        final byte[] batch = new byte[300];
        for (int i = 0; i < batch.length; i++)
        {
            batch[i] = (byte) i;
        }
        for (short version = KafkaProduceRequests.MIN_VERSION; version <= KafkaProduceRequests.MAX_VERSION; version++)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
            final int limit = KafkaProduceRequests.encode(version, buffer, 10, buffer.capacity(), topic, (short) -1, 30000, 7,
                new UnsafeBuffer(batch), 0, batch.length);
            final byte[] body = new byte[limit - 10];
            buffer.getBytes(10, body);
            final ProduceRequestData request = new ProduceRequestData(new ByteBufferAccessor(ByteBuffer.wrap(body)), version);
            assertNull(request.transactionalId());
            assertEquals(-1, request.acks());
            assertEquals(30000, request.timeoutMs());
            assertEquals(1, request.topicData().size());
            final ProduceRequestData.TopicProduceData data = request.topicData().iterator().next();
            assertEquals("topic-é", data.name());
            assertEquals(1, data.partitionData().size());
            assertEquals(7, data.partitionData().get(0).index());
            final ByteBuffer records = ((MemoryRecords) data.partitionData().get(0).records()).buffer();
            final byte[] copied = new byte[records.remaining()];
            records.get(copied);
            assertArrayEquals(batch, copied, "v" + version);
            assertEquals(request.size(new ObjectSerializationCache(), version), body.length, "v" + version);
        }
    }

    @Test
    void shouldReadThePartitionErrorOfEveryVersion()
    {
        for (short version = KafkaProduceRequests.MIN_VERSION; version <= KafkaProduceRequests.MAX_VERSION; version++)
        {
            final ProduceResponseData response = new ProduceResponseData().setThrottleTimeMs(5);
            final ProduceResponseData.TopicProduceResponse topic = new ProduceResponseData.TopicProduceResponse()
                .setName("a-topic");
            topic.partitionResponses().add(new ProduceResponseData.PartitionProduceResponse()
                .setIndex(3).setErrorCode((short) 6).setBaseOffset(-1L).setErrorMessage("not the leader"));
            response.responses().add(topic);
            final ObjectSerializationCache cache = new ObjectSerializationCache();
            final ByteBuffer out = ByteBuffer.allocate(response.size(cache, version));
            response.write(new ByteBufferAccessor(out), cache, version);
            final UnsafeBuffer buffer = new UnsafeBuffer(out.array());
            assertEquals(6, KafkaProduceRequests.readError(version, buffer, 0, buffer.capacity()), "v" + version);
            assertEquals(KafkaProduceRequests.MALFORMED, KafkaProduceRequests.readError(version, buffer, 0, 8), "v" + version);
        }
    }

    @Test
    void shouldWriteSeveralPartitionsOfSeveralTopicsAsKafkaClientsReadsThem()
    {
        final Batch[] batches = {
            new Batch("alpha", 0, 100), new Batch("alpha", 3, 7), new Batch("beta-é", 1, 300), new Batch("gamma", 2, 1) };
        for (short version = KafkaProduceRequests.MIN_VERSION; version <= KafkaProduceRequests.MAX_VERSION; version++)
        {
            final int size = KafkaProduceRequests.sizeofMany(version, batches, batches.length);
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[2048]);
            final int limit = KafkaProduceRequests.encodeMany(version, buffer, 5, (short) 1, 1500, batches, batches.length);
            assertEquals(size, limit - 5, "v" + version);
            final byte[] body = new byte[size];
            buffer.getBytes(5, body);
            final ProduceRequestData request = new ProduceRequestData(new ByteBufferAccessor(ByteBuffer.wrap(body)), version);
            assertEquals(request.size(new ObjectSerializationCache(), version), body.length, "v" + version);
            assertEquals(1, request.acks());
            assertEquals(1500, request.timeoutMs());
            assertEquals(3, request.topicData().size(), "v" + version);
            int seen = 0;
            for (ProduceRequestData.TopicProduceData topic : request.topicData())
            {
                for (ProduceRequestData.PartitionProduceData partition : topic.partitionData())
                {
                    final Batch expected = batches[seen++];
                    assertEquals(expected.name, topic.name(), "v" + version);
                    assertEquals(expected.partitionId, partition.index(), "v" + version);
                    final ByteBuffer records = ((MemoryRecords) partition.records()).buffer();
                    final byte[] copied = new byte[records.remaining()];
                    records.get(copied);
                    assertArrayEquals(expected.bytes, copied, "v" + version);
                }
            }
            assertEquals(batches.length, seen);
        }
    }

    @Test
    void shouldReadEveryPartitionOfEveryVersion()
    {
        for (short version = KafkaProduceRequests.MIN_VERSION; version <= KafkaProduceRequests.MAX_VERSION; version++)
        {
            final ProduceResponseData response = new ProduceResponseData().setThrottleTimeMs(5);
            final ProduceResponseData.TopicProduceResponse alpha = new ProduceResponseData.TopicProduceResponse()
                .setName("alpha");
            alpha.partitionResponses().add(new ProduceResponseData.PartitionProduceResponse()
                .setIndex(0).setErrorCode((short) 0).setBaseOffset(42L));
            final ProduceResponseData.PartitionProduceResponse failed = new ProduceResponseData.PartitionProduceResponse()
                .setIndex(3).setErrorCode((short) 6).setBaseOffset(-1L).setErrorMessage("not the leader");
            if (version >= 8)
            {
                failed.recordErrors().add(new ProduceResponseData.BatchIndexAndErrorMessage()
                    .setBatchIndex(2).setBatchIndexErrorMessage("bad record"));
            }
            if (version >= 10)
            {
                failed.setCurrentLeader(new ProduceResponseData.LeaderIdAndEpoch().setLeaderId(2).setLeaderEpoch(9));
            }
            alpha.partitionResponses().add(failed);
            final ProduceResponseData.TopicProduceResponse beta = new ProduceResponseData.TopicProduceResponse()
                .setName("beta");
            beta.partitionResponses().add(new ProduceResponseData.PartitionProduceResponse()
                .setIndex(1).setErrorCode((short) 10).setBaseOffset(-1L));
            response.responses().add(alpha);
            response.responses().add(beta);
            final ObjectSerializationCache cache = new ObjectSerializationCache();
            final ByteBuffer out = ByteBuffer.allocate(response.size(cache, version));
            response.write(new ByteBufferAccessor(out), cache, version);
            final UnsafeBuffer buffer = new UnsafeBuffer(out.array());
            final StringBuilder heard = new StringBuilder();
            final KafkaProduceRequests.PartitionHandler handler = (b, topicOffset, topicLength, partitionId, error) ->
                heard.append(b.getStringWithoutLengthUtf8(topicOffset, topicLength)).append('-').append(partitionId)
                    .append(':').append(error).append(' ');
            assertEquals(3, KafkaProduceRequests.readPartitions(version, buffer, 0, buffer.capacity(), handler),
                "v" + version);
            assertEquals("alpha-0:0 alpha-3:6 beta-1:10 ", heard.toString(), "v" + version);
            for (int cut = 0; cut < buffer.capacity() - Integer.BYTES - (version >= 9 ? 1 : 0); cut++)
            {
                final int read = KafkaProduceRequests.readPartitions(version, buffer, 0, cut, (b, o, l, p, e) -> { });
                assertEquals(KafkaProduceRequests.MALFORMED, read, "v" + version + " cut at " + cut);
            }
        }
    }

    private static final class Batch implements KafkaProduceRequests.PartitionBatch
    {
        private final String name;
        private final byte[] topic;
        private final int partitionId;
        private final byte[] bytes;

        Batch(String name, int partitionId, int length)
        {
            this.name = name;
            this.topic = name.getBytes(StandardCharsets.UTF_8);
            this.partitionId = partitionId;
            this.bytes = new byte[length];
            for (int i = 0; i < length; i++)
            {
                bytes[i] = (byte) (i * 31 + partitionId);
            }
        }

        @Override
        public byte[] topic()
        {
            return topic;
        }

        @Override
        public int partitionId()
        {
            return partitionId;
        }

        @Override
        public UnsafeBuffer batchBuffer()
        {
            return new UnsafeBuffer(bytes);
        }

        @Override
        public int batchOffset()
        {
            return 0;
        }

        @Override
        public int batchLength()
        {
            return bytes.length;
        }
    }
}
