/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Evenly spaced send times at a fixed rate: the n-th operation is intended at {@code start + n / rate}, whatever
 * happened before it. A caller that falls behind sends at once and the gap between its intended and actual send time
 * (the publish delay) shows the stall instead of hiding it (coordinated omission). Shared by a worker's load threads,
 * as OMB's: each operation takes the next intended time, whichever thread asks.
 */
final class UniformRateLimiter
{
    private final double nanosPerOperation;
    private final long start;
    private final AtomicLong operations = new AtomicLong();

    UniformRateLimiter(double operationsPerSecond, long startNanos)
    {
        if (!(operationsPerSecond > 0))
        {
            throw new IllegalArgumentException("rate must be positive: " + operationsPerSecond);
        }
        this.nanosPerOperation = 1e9 / operationsPerSecond;
        this.start = startNanos;
    }

    /** The intended time ({@link System#nanoTime()}) of the next operation; does not wait. */
    long next()
    {
        return start + (long) (operations.getAndIncrement() * nanosPerOperation);
    }
}
