/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import java.util.Arrays;

/**
 * The upper bounds of a histogram's buckets, inclusive and ascending, in the metric's unit; one more bucket above the
 * last bound takes the rest ({@code le="+Inf"}). Fixed per metric, so that every worker and every exporter agree, and
 * at most {@link #MAX_BOUNDS} of them, so that a histogram fits its record in shared memory.
 */
public final class Buckets
{
    public static final int MAX_BOUNDS = 29;

    private static final long MICROSECOND = 1_000L;
    private static final long MILLISECOND = 1_000_000L;
    private static final long SECOND = 1_000_000_000L;

    /** Durations from 10 µs to 30 s: resolves the sub-millisecond times a proxy on loopback makes. */
    public static final Buckets DURATIONS = new Buckets(
        10 * MICROSECOND, 25 * MICROSECOND, 50 * MICROSECOND, 100 * MICROSECOND, 250 * MICROSECOND, 500 * MICROSECOND,
        MILLISECOND, 2_500 * MICROSECOND, 5 * MILLISECOND, 10 * MILLISECOND, 25 * MILLISECOND, 50 * MILLISECOND,
        100 * MILLISECOND, 250 * MILLISECOND, 500 * MILLISECOND, SECOND, 2_500 * MILLISECOND, 5 * SECOND, 10 * SECOND,
        30 * SECOND);

    /** Sizes from 64 bytes to 16 MiB. */
    public static final Buckets SIZES = new Buckets(
        64, 128, 256, 512, 1 << 10, 4 << 10, 16 << 10, 64 << 10, 256 << 10, 1 << 20, 4 << 20, 16 << 20);

    private final long[] bounds;

    public Buckets(long... bounds)
    {
        if (bounds.length == 0 || bounds.length > MAX_BOUNDS)
        {
            throw new IllegalArgumentException("1 to " + MAX_BOUNDS + " bounds, not " + bounds.length);
        }
        for (int i = 1; i < bounds.length; i++)
        {
            if (bounds[i] <= bounds[i - 1])
            {
                throw new IllegalArgumentException("bounds must ascend: " + Arrays.toString(bounds));
            }
        }
        this.bounds = bounds.clone();
    }

    /** How many buckets: one per bound and the one above them all. */
    public int count()
    {
        return bounds.length + 1;
    }

    /** The upper bound of bucket {@code index}; {@link Long#MAX_VALUE} for the last. */
    public long bound(int index)
    {
        return index < bounds.length ? bounds[index] : Long.MAX_VALUE;
    }

    /** The bucket a value falls in: the first whose bound is at least the value. A binary search, no allocation. */
    public int index(long value)
    {
        int low = 0;
        int high = bounds.length;
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (bounds[middle] < value)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low;
    }

    @Override
    public boolean equals(Object other)
    {
        return other instanceof Buckets that && Arrays.equals(bounds, that.bounds);
    }

    @Override
    public int hashCode()
    {
        return Arrays.hashCode(bounds);
    }

    @Override
    public String toString()
    {
        return Arrays.toString(bounds);
    }
}
