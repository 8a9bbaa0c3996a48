/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

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
    void shouldWaitUntilDeadline()
    {
        final long start = System.nanoTime();
        UniformRateLimiter.waitUntil(start + 20_000_000L);
        assertTrue(System.nanoTime() - start >= 20_000_000L);
    }

    @Test
    void shouldStampAndReadPayloadNanos()
    {
        final byte[] payload = new byte[16];
        Payloads.stamp(payload, -123_456_789_012L);
        assertEquals(-123_456_789_012L, Payloads.stamp(payload));
    }

    @Test
    void shouldListPercentilesUpToFiveNines()
    {
        final List<Double> percentiles = ResultBuilder.percentiles();
        assertEquals(0.0, percentiles.get(0));
        assertEquals(99.999, percentiles.get(percentiles.size() - 1));
        assertTrue(percentiles.contains(99.0) && percentiles.contains(99.9) && percentiles.contains(50.0));
    }
}
