/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/**
 * Random and corrupted blocks: the decoder returns one of its three results and never throws; the block is a
 * buffer that ends at the block's limit, so a read past it would throw.
 */
class HpackRandomInputTest
{
    @Test
    void shouldSurviveRandomBytes()
    {
        final Random random = new Random(9113);
        HpackDecoder decoder = new HpackDecoder(4096, 8192);
        final byte[] bytes = new byte[300];
        int errors = 0;
        for (int round = 0; round < 200_000; round++)
        {
            final int offset = random.nextInt(16);
            final int length = random.nextInt(bytes.length - offset);
            random.nextBytes(bytes);
            // a few rounds biased towards what this decoder parses: indexes, literals and Huffman strings
            if (round % 4 == 0 && length > 0)
            {
                bytes[offset] = (byte) (random.nextBoolean() ? 0x40 : 0x00);
            }
            final UnsafeBuffer block = new UnsafeBuffer(bytes, 0, offset + length);
            final int result = decoder.decode(block, offset, length, HpackRandomInputTest::ignore);
            assertResult(decoder, result);
            if (result == HpackDecoder.COMPRESSION_ERROR)
            {
                // the connection ends with the error: a new one starts with a new decoder
                decoder = new HpackDecoder(4096, 8192);
                errors++;
            }
        }
        assertTrue(errors > 0);
    }

    @Test
    void shouldSurviveCorruptedBlocks()
    {
        final Random random = new Random(7541);
        final HpackEncoder encoder = new HpackEncoder(4096).indexing(HpackIndexing.ALL);
        final UnsafeBuffer out = new UnsafeBuffer(new byte[4096]);
        final UnsafeBuffer name = new UnsafeBuffer(new byte[64]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[256]);
        int decoded = 0;
        for (int round = 0; round < 20_000; round++)
        {
            int limit = encoder.beginBlock(out, 0);
            for (int field = random.nextInt(8); field >= 0; field--)
            {
                final int nameLength = 1 + random.nextInt(name.capacity() - 1);
                final int valueLength = random.nextInt(value.capacity());
                for (int i = 0; i < nameLength; i++)
                {
                    name.putByte(i, (byte) ('a' + random.nextInt(4)));
                }
                for (int i = 0; i < valueLength; i++)
                {
                    value.putByte(i, (byte) random.nextInt(256));
                }
                limit = encoder.encode(out, limit, out.capacity(), name, 0, nameLength, value, 0, valueLength, false);
            }
            // flip a few bits or cut the block short, then decode with a fresh decoder
            final byte[] corrupted = new byte[random.nextInt(4) == 0 ? random.nextInt(limit + 1) : limit];
            out.getBytes(0, corrupted);
            for (int flips = random.nextInt(3); flips > 0 && corrupted.length > 0; flips--)
            {
                final int at = random.nextInt(corrupted.length);
                corrupted[at] ^= (byte) (1 << random.nextInt(8));
            }
            final HpackDecoder decoder = new HpackDecoder(4096, 1 << 16);
            final UnsafeBuffer block = new UnsafeBuffer(corrupted);
            final int result = decoder.decode(block, 0, corrupted.length, HpackRandomInputTest::ignore);
            assertResult(decoder, result);
            decoded += result == HpackDecoder.DECODED ? 1 : 0;
            encoder.table().clear();
        }
        assertTrue(decoded > 0);
    }

    private static void assertResult(
        HpackDecoder decoder,
        int result)
    {
        assertTrue(result == HpackDecoder.DECODED || result == HpackDecoder.COMPRESSION_ERROR
            || result == HpackDecoder.HEADER_LIST_TOO_LARGE, "result " + result);
        assertEquals(result == HpackDecoder.COMPRESSION_ERROR, decoder.error() != HpackError.NONE);
        assertTrue(decoder.table().size() <= decoder.table().maxSize());
    }

    private static void ignore(
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength,
        boolean neverIndexed)
    {
        assertTrue(nameLength >= 0 && valueLength >= 0);
        assertTrue(nameOffset + nameLength <= name.capacity() && valueOffset + valueLength <= value.capacity());
    }
}
