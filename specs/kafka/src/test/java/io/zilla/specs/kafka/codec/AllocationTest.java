/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.RequestHeaderData;
import org.apache.kafka.common.message.ResponseHeaderData;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

/** The data path (every request and response header) allocates nothing once warmed up. */
class AllocationTest
{
    private static final int ROUNDS = 100_000;

    @Test
    void shouldDecodeHeadersWithoutAllocating()
    {
        final RequestHeaderData request = new RequestHeaderData().setRequestApiKey(KafkaApis.FETCH)
            .setRequestApiVersion((short) 17).setCorrelationId(5).setClientId("consumer-1");
        request.unknownTaggedFields().add(new RawTaggedField(1, new byte[] {1, 2}));
        final UnsafeBuffer requestBuffer = new UnsafeBuffer(Messages.bytes(request, (short) 2));
        final ResponseHeaderData response = new ResponseHeaderData().setCorrelationId(5);
        final UnsafeBuffer responseBuffer = new UnsafeBuffer(Messages.bytes(response, (short) 1));

        final RequestHeaderDecoder requestDecoder = new RequestHeaderDecoder();
        final ResponseHeaderDecoder responseDecoder = new ResponseHeaderDecoder();
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        long sum = decode(requestDecoder, requestBuffer, responseDecoder, responseBuffer);
        final long before = threads.getCurrentThreadAllocatedBytes();
        sum += decode(requestDecoder, requestBuffer, responseDecoder, responseBuffer);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertEquals(2L * ROUNDS * (requestBuffer.capacity() + responseBuffer.capacity() + 15), sum);
        // a little slack for the measurement itself, far below one byte per round
        assertEquals(0, allocated / ROUNDS, "bytes allocated per round");
    }

    private static long decode(
        RequestHeaderDecoder requestDecoder,
        UnsafeBuffer requestBuffer,
        ResponseHeaderDecoder responseDecoder,
        UnsafeBuffer responseBuffer)
    {
        long sum = 0;
        for (int i = 0; i < ROUNDS; i++)
        {
            sum += requestDecoder.wrap(requestBuffer, 0, requestBuffer.capacity());
            sum += requestDecoder.clientId().length();
            sum += responseDecoder.wrap(responseBuffer, 0, responseBuffer.capacity(), KafkaApis.FETCH, 17);
            sum += responseDecoder.correlationId();
        }
        return sum;
    }
}
