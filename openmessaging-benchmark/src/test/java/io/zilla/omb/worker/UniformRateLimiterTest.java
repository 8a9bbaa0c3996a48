/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;

import org.junit.jupiter.api.Test;

class UniformRateLimiterTest
{
    @Test
    void shouldSpaceIntendedTimesEvenlyFromStart()
    {
        final UniformRateLimiter limiter = new UniformRateLimiter(4_000, 1_000_000L);

        assertEquals(1_000_000L, limiter.next());
        assertEquals(1_250_000L, limiter.next());
        assertEquals(1_500_000L, limiter.next());
        for (int i = 3; i < 4_000; i++)
        {
            limiter.next();
        }
        // one second later, whatever the caller did meanwhile: no drift from rounding
        assertEquals(1_001_000_000L, limiter.next());
    }

    @Test
    void shouldRejectNonPositiveRate()
    {
        assertThrows(IllegalArgumentException.class, () -> new UniformRateLimiter(0, 0));
    }

    @Test
    void shouldStampAndReadPayloadNanos()
    {
        final byte[] payload = new byte[16];
        PayloadStamp.write(payload, -123_456_789_012L);
        assertEquals(-123_456_789_012L, PayloadStamp.read(payload));
    }

    @Test
    void shouldGiveEachThreadItsOwnSendTimesWhenShared() throws Exception
    {
        // a worker's load threads share one limiter: together they take every slot once, so the worker keeps its rate
        final UniformRateLimiter limiter = new UniformRateLimiter(1_000_000, 0L);
        final long[][] taken = new long[4][10_000];
        final Thread[] threads = new Thread[taken.length];
        for (int t = 0; t < threads.length; t++)
        {
            final long[] mine = taken[t];
            threads[t] = new Thread(() ->
            {
                for (int i = 0; i < mine.length; i++)
                {
                    mine[i] = limiter.next();
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads)
        {
            thread.join();
        }
        final long[] all = Arrays.stream(taken).flatMapToLong(Arrays::stream).sorted().toArray();
        for (int i = 0; i < all.length; i++)
        {
            assertEquals(i * 1_000L, all[i], "slot " + i);
        }
    }
}
