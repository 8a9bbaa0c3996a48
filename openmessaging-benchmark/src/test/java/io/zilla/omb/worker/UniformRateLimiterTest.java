/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        PayloadStamp.write(payload, -123_456_789_012L);
        assertEquals(-123_456_789_012L, PayloadStamp.read(payload));
    }
}
