/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.Random;

import io.zilla.specs.kafka.types.codec.RecordHeaderFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Batches of every compression, encoded and decoded with their CRC, allocate nothing once warmed up (heap or direct
 * buffers): the codecs' state and buffers are kept by the encoder's deflater and the decoder's inflater.
 */
class RecordBatchAllocationTest
{
    private static final int ROUNDS = 5_000;
    private static final int RECORDS = 10;

    private final RecordBatchEncoder encoder = new RecordBatchEncoder();
    private final RecordBatchDecoder decoder = new RecordBatchDecoder();
    private final UnsafeBuffer key = new UnsafeBuffer(RecordSamples.bytes("key"));
    private final UnsafeBuffer value = new UnsafeBuffer(text(100));
    private final UnsafeBuffer headers = new UnsafeBuffer(new byte[64]);
    private int headersLength;

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldEncodeAndDecodeWithoutAllocatingOnHeap(
        RecordCompression compression)
    {
        assertNoAllocation(new UnsafeBuffer(new byte[64 * 1024]), compression);
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldEncodeAndDecodeWithoutAllocatingOffHeap(
        RecordCompression compression)
    {
        assertNoAllocation(new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024)), compression);
    }

    // a binding's buffer-pool slots lie in chunks of 16, each its own ByteBuffer: one codec meets them in turn
    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldEncodeAndDecodeWithoutAllocatingAcrossDirectChunks(
        RecordCompression compression)
    {
        assertNoAllocation(compression, new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024), 0, 32 * 1024),
            new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024), 32 * 1024, 32 * 1024),
            new UnsafeBuffer(ByteBuffer.allocateDirect(64 * 1024), 0, 32 * 1024));
    }

    private void assertNoAllocation(
        UnsafeBuffer buffer,
        RecordCompression compression)
    {
        assertNoAllocation(compression, buffer);
    }

    private void assertNoAllocation(
        RecordCompression compression,
        UnsafeBuffer... buffers)
    {
        headersLength = new RecordHeaderFW.Builder().wrap(headers, 0, headers.capacity())
            .name(RecordSamples.bytes("trace"))
            .value(RecordSamples.bytes("abc"))
            .build()
            .limit();
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

        long sum = rounds(buffers, compression);
        final long before = threads.getCurrentThreadAllocatedBytes();
        sum += rounds(buffers, compression);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        // each record: its offset delta, key length 3, value length 100, one header of 5 + 3 bytes
        assertEquals(2L * ROUNDS * (RECORDS * (RECORDS - 1) / 2 + RECORDS * (3 + 100 + 8)), sum);
        // a little slack for the measurement itself, far below one byte per round
        assertEquals(0, allocated / ROUNDS, "bytes allocated per round, " + compression);
    }

    private long rounds(
        UnsafeBuffer[] buffers,
        RecordCompression compression)
    {
        long sum = 0;
        for (int round = 0; round < ROUNDS; round++)
        {
            final UnsafeBuffer buffer = buffers[round % buffers.length];
            encoder.begin(buffer, 0, buffer.capacity(), compression, 7L, (short) 1, round, false);
            for (int i = 0; i < RECORDS; i++)
            {
                encoder.append(1_000L + i, key, 0, key.capacity(), value, 0, value.capacity(), headers, 0, headersLength, 1);
            }
            final int length = encoder.finish();
            assertTrue(length > 0);
            assertEquals(compression.id(), buffer.getByte(RecordBatches.ATTRIBUTES_OFFSET + 1) & 0x07);

            decoder.wrap(buffer, 0, length);
            while (decoder.nextBatch())
            {
                while (decoder.nextRecord())
                {
                    final DecodedRecord record = decoder.record();
                    sum += record.offset() - decoder.baseOffset();
                    sum += record.key().sizeof() + record.value().sizeof();
                    while (record.nextHeader())
                    {
                        sum += record.header().name().sizeof() + record.header().value().sizeof();
                    }
                }
            }
        }
        return sum;
    }

    private static byte[] text(
        int length)
    {
        // words, so that every codec has something to compress and blocks are not stored as they are
        final String[] words = {"kafka ", "zilla ", "record ", "batch ", "stream ", "worker "};
        final Random random = new Random(3);
        final StringBuilder text = new StringBuilder();
        while (text.length() < length)
        {
            text.append(words[random.nextInt(words.length)]);
        }
        return RecordSamples.bytes(text.substring(0, length));
    }
}
