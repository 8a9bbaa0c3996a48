/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import org.agrona.concurrent.AtomicBuffer;

/**
 * One histogram of a binding on one worker, in the worker's shared-memory histograms file: a count per bucket and the
 * sum of the recorded values. Only its worker records into it, so an observation is two plain increments published
 * with release stores, no atomic instruction; readers in other threads or processes see each value whole.
 */
public final class Histogram
{
    /** Where the sum lies in a histogram's values, after the counts of at most 30 buckets. */
    public static final int SUM_INDEX = Buckets.MAX_BOUNDS + 1;
    /** The bytes of a histogram's values. */
    public static final int VALUES_LENGTH = 32 * Long.BYTES;

    private final AtomicBuffer values;
    private final int offset;
    private final Buckets buckets;

    public Histogram(AtomicBuffer values, int offset, Buckets buckets)
    {
        this.values = values;
        this.offset = offset;
        this.buckets = buckets;
    }

    /** Counts one observation; a negative value counts as 0. */
    public void record(long value)
    {
        final long observed = Math.max(0L, value);
        final int bucket = offset + buckets.index(observed) * Long.BYTES;
        values.putLongRelease(bucket, values.getLong(bucket) + 1L);
        final int sum = offset + SUM_INDEX * Long.BYTES;
        values.putLongRelease(sum, values.getLong(sum) + observed);
    }

    public Buckets buckets()
    {
        return buckets;
    }
}
