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
}
