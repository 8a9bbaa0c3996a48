/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.util.Base64;
import java.util.Random;
import java.util.TreeMap;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** The progress token of SSE event ids and HTTP ETags: round trips, its exact bytes, and everything it refuses. */
class KafkaProgressTokenTest
{
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128 * 1024]);

    @Test
    void shouldWriteTheDocumentedBytes()
    {
        final KafkaProgressToken token = new KafkaProgressToken();
        token.put(1, 300L);
        token.put(0, 5L);
        token.put(3, -2L);
        // version 1, count 3; partition 0 (0), offset 5 (zig-zag 10); partition 1 (distance 0), offset 300 (600 =
        // 0xd8 0x04); partition 3 (distance 1), offset -2 (zig-zag 3)
        final byte[] binary = {1, 3, 0, 10, 0, (byte) 0xd8, 0x04, 1, 3};
        assertEquals(Base64.getUrlEncoder().withoutPadding().encodeToString(binary), encode(token));
    }

    @Test
    void shouldRoundTripRandomVectors()
    {
        final Random random = new Random(24);
        final KafkaProgressToken writer = new KafkaProgressToken();
        final KafkaProgressToken reader = new KafkaProgressToken();
        for (int round = 0; round < 20_000; round++)
        {
            writer.clear();
            final TreeMap<Integer, Long> expected = new TreeMap<>();
            final int partitions = random.nextInt(round % 100 == 0 ? 4096 : 16) + 1;
            for (int i = 0; i < partitions; i++)
            {
                final int partition = random.nextInt(3) == 0 ? random.nextInt(Integer.MAX_VALUE) : random.nextInt(64);
                final long offset = switch (random.nextInt(4))
                {
                    case 0 -> random.nextInt(3) - 2;
                    case 1 -> random.nextLong(KafkaProgressToken.MAX_OFFSET + 1);
                    default -> random.nextInt(1 << 20);
                };
                if (writer.put(partition, offset))
                {
                    expected.put(partition, offset);
                }
            }
            final int length = writer.encode(buffer, 0, buffer.capacity());
            assertEquals(writer.encodedLength(), length);
            assertTrue(reader.decode(buffer, 0, length), "round " + round);
            assertEquals(expected.size(), reader.count());
            int i = 0;
            for (var entry : expected.entrySet())
            {
                assertEquals(entry.getKey(), reader.partitionId(i));
                assertEquals(entry.getValue(), reader.offset(i));
                i++;
            }
            for (int c = 0; c < length; c++)
            {
                final byte b = buffer.getByte(c);
                assertTrue(b >= 'A' && b <= 'Z' || b >= 'a' && b <= 'z' || b >= '0' && b <= '9' || b == '-' || b == '_');
            }
        }
    }

    @Test
    void shouldBeShortForEightPartitions()
    {
        final KafkaProgressToken token = new KafkaProgressToken();
        for (int p = 0; p < 8; p++)
        {
            token.put(p, 1_000_000L + p);
        }
        assertEquals(46, encode(token).length(), encode(token));
    }

    @Test
    void shouldRefuseWhatItDidNotWrite()
    {
        final KafkaProgressToken token = new KafkaProgressToken(8);
        assertRefused(token, "");
        assertRefused(token, "A");
        assertRefused(token, "not a token!");
        assertRefused(token, "AQ==");
        assertRefused(token, "a+b/");
        assertRefused(token, "é");
        // the version
        assertRefused(token, binary(2, 1, 0, 0));
        assertRefused(token, binary(0, 1, 0, 0));
        // a count beyond the bytes, and beyond the capacity
        assertRefused(token, binary(1, 2, 0, 0));
        assertRefused(token, binary(1, 9, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
        // bytes after the last partition
        assertRefused(token, binary(1, 1, 0, 0, 0));
        // a varint that never ends, or of more than 10 bytes
        assertRefused(token, binary(1, 1, 0, 0x80, 0x80));
        assertRefused(token, binary(1, 1, 0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01));
        // a partition id above 2^31 - 1 (a distance that overflows), an offset below -2 (zig-zag 5 = -3) or above 2^53
        assertRefused(token, binary(1, 2, 0xff, 0xff, 0xff, 0xff, 0x07, 0, 0xff, 0xff, 0xff, 0xff, 0x07, 0));
        assertRefused(token, binary(1, 1, 0, 5));
        assertRefused(token, binary(1, 1, 0, 0x82, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01));
        // bits set in the last character's padding
        assertRefused(token, "AQB");

        assertTrue(token.decode(ascii(binary(1, 0)), 0, binary(1, 0).length()));
        assertEquals(0, token.count());
    }

    @Test
    void shouldNeverThrowOnGarbage()
    {
        final Random random = new Random(11);
        final KafkaProgressToken token = new KafkaProgressToken(16);
        final byte[] alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".getBytes(US_ASCII);
        int accepted = 0;
        for (int round = 0; round < 200_000; round++)
        {
            final int length = random.nextInt(64);
            for (int i = 0; i < length; i++)
            {
                buffer.putByte(i, round % 2 == 0 ? alphabet[random.nextInt(64)] : (byte) random.nextInt(256));
            }
            if (token.decode(buffer, 0, length))
            {
                accepted++;
                for (int i = 0; i < token.count(); i++)
                {
                    assertTrue(token.offset(i) >= -2L && token.offset(i) <= KafkaProgressToken.MAX_OFFSET);
                    assertTrue(i == 0 || token.partitionId(i) > token.partitionId(i - 1));
                }
            }
            else
            {
                assertEquals(0, token.count());
            }
        }
        // random text seldom starts with the version byte and parses to its end
        assertTrue(accepted < 2_000, accepted + " accepted");
    }

    @Test
    void shouldRefuseWhatItCannotHold()
    {
        final KafkaProgressToken token = new KafkaProgressToken(2);
        assertTrue(token.put(0, 0L));
        assertTrue(token.put(1, 0L));
        assertFalse(token.put(2, 0L));
        assertTrue(token.put(1, 7L));
        assertFalse(token.put(3, -3L));
        assertFalse(token.put(-1, 0L));
        assertFalse(token.put(0, KafkaProgressToken.MAX_OFFSET + 1));
        assertEquals(-1, token.encode(buffer, 0, 3));
        assertEquals(7L, token.offsetOf(1, -9L));
        assertEquals(-9L, token.offsetOf(5, -9L));
    }

    @Test
    void shouldNotAllocate()
    {
        final KafkaProgressToken token = new KafkaProgressToken();
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long sum = roundTrips(token);
        final long before = threads.getCurrentThreadAllocatedBytes();
        sum += roundTrips(token);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertTrue(sum > 0);
        assertEquals(0, allocated / 100_000, "bytes allocated per round trip");
    }

    private long roundTrips(KafkaProgressToken token)
    {
        long sum = 0;
        for (int round = 0; round < 100_000; round++)
        {
            token.clear();
            for (int p = 0; p < 8; p++)
            {
                token.put(p, round + p);
            }
            final int length = token.encode(buffer, 0, buffer.capacity());
            token.decode(buffer, 0, length);
            sum += token.offset(7);
        }
        return sum;
    }

    private void assertRefused(KafkaProgressToken token, String text)
    {
        final UnsafeBuffer ascii = ascii(text);
        assertFalse(token.decode(ascii, 0, ascii.capacity()), text);
        assertEquals(0, token.count());
    }

    private static String encode(KafkaProgressToken token)
    {
        final UnsafeBuffer out = new UnsafeBuffer(new byte[1024]);
        final int length = token.encode(out, 0, out.capacity());
        return out.getStringWithoutLengthAscii(0, length);
    }

    private static String binary(int... bytes)
    {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (int b : bytes)
        {
            out.write(b);
        }
        return Base64.getUrlEncoder().withoutPadding().encodeToString(out.toByteArray());
    }

    private static UnsafeBuffer ascii(String text)
    {
        return new UnsafeBuffer(text.getBytes(UTF_8));
    }
}
