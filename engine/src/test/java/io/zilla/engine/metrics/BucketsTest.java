/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class BucketsTest
{
    @Test
    void shouldPutEachValueInTheFirstBucketWhoseBoundHoldsIt()
    {
        final Buckets buckets = new Buckets(10, 100, 1000);

        assertEquals(4, buckets.count());
        assertEquals(0, buckets.index(0));
        assertEquals(0, buckets.index(10));
        assertEquals(1, buckets.index(11));
        assertEquals(1, buckets.index(100));
        assertEquals(2, buckets.index(101));
        assertEquals(2, buckets.index(1000));
        assertEquals(3, buckets.index(1001));
        assertEquals(3, buckets.index(Long.MAX_VALUE));
        assertEquals(Long.MAX_VALUE, buckets.bound(3));
    }

    @Test
    void shouldPutEveryBoundOfTheDurationsInItsOwnBucket()
    {
        final Buckets durations = Buckets.DURATIONS;
        for (int i = 0; i < durations.count() - 1; i++)
        {
            assertEquals(i, durations.index(durations.bound(i)));
            assertEquals(i + 1, durations.index(durations.bound(i) + 1));
        }
        // sub-millisecond: 10 µs, 25 µs... resolve a proxy's hop on loopback
        assertEquals(0, durations.index(10_000L));
        assertEquals(1, durations.index(10_001L));
    }

    @Test
    void shouldRefuseBoundsThatDoNotAscendOrAreTooMany()
    {
        assertThrows(IllegalArgumentException.class, () -> new Buckets(10, 10));
        assertThrows(IllegalArgumentException.class, () -> new Buckets(new long[Buckets.MAX_BOUNDS + 1]));
        assertThrows(IllegalArgumentException.class, Buckets::new);
    }
}
