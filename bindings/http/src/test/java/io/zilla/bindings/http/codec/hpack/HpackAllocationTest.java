/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.management.ManagementFactory;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Decoding and encoding blocks allocate nothing once warmed up (steady state of a connection). */
class HpackAllocationTest
{
    private static final int ROUNDS = 50_000;

    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private long sum;

    @Test
    void shouldDecodeWithoutAllocating()
    {
        final UnsafeBuffer[][] request = HpackSamples.buffers(HpackSamples.REQUEST);
        final UnsafeBuffer[][] response = HpackSamples.buffers(HpackSamples.RESPONSE);
        // the first blocks (literals, Huffman strings, table insertions) and a repeat (indexes)
        final HpackEncoder encoder = new HpackEncoder(4096);
        final UnsafeBuffer[] blocks = new UnsafeBuffer[4];
        for (int i = 0; i < blocks.length; i++)
        {
            final UnsafeBuffer out = new UnsafeBuffer(new byte[4096]);
            blocks[i] = new UnsafeBuffer(out, 0, HpackSamples.encode(encoder, i % 2 == 0 ? request : response, out));
        }
        final HpackHeaderSink sink = this::onHeader;

        decode(blocks, sink);
        final long before = threads.getCurrentThreadAllocatedBytes();
        decode(blocks, sink);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertEquals(0, allocated / ROUNDS, "bytes allocated per round");
    }

    @Test
    void shouldEncodeWithoutAllocating()
    {
        final UnsafeBuffer[][] request = HpackSamples.buffers(HpackSamples.REQUEST);
        final UnsafeBuffer[][] response = HpackSamples.buffers(HpackSamples.RESPONSE);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[4096]);

        encode(request, response, out);
        final long before = threads.getCurrentThreadAllocatedBytes();
        encode(request, response, out);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertEquals(0, allocated / ROUNDS, "bytes allocated per round");
    }

    private void decode(
        UnsafeBuffer[] blocks,
        HpackHeaderSink sink)
    {
        for (int i = 0; i < ROUNDS; i++)
        {
            // a new connection's decoder every round would allocate: one decoder takes the blocks in a cycle,
            // resetting its table as the encoder's was when the cycle began
            final HpackDecoder decoder = DECODER;
            decoder.table().clear();
            for (UnsafeBuffer block : blocks)
            {
                if (decoder.decode(block, 0, block.capacity(), sink) != HpackDecoder.DECODED)
                {
                    throw new AssertionError(decoder.error());
                }
            }
        }
    }

    private void encode(
        UnsafeBuffer[][] request,
        UnsafeBuffer[][] response,
        UnsafeBuffer out)
    {
        for (int i = 0; i < ROUNDS; i++)
        {
            ENCODER.table().clear();
            sum += HpackSamples.encode(ENCODER, request, out);
            sum += HpackSamples.encode(ENCODER, response, out);
            sum += ENCODER.encodeStatus(out, 0, out.capacity(), 302);
        }
    }

    private void onHeader(
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength,
        boolean neverIndexed)
    {
        sum += name.getByte(nameOffset) + valueLength;
    }

    private static final HpackDecoder DECODER = new HpackDecoder(4096, 16384);
    private static final HpackEncoder ENCODER = new HpackEncoder(4096);
}
