/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.time.Instant;

/**
 * Nanoseconds since the epoch, as fine as {@link System#nanoTime()}: the send time written into each payload and
 * compared with the receive time by a consumer that may be in another worker process, or on another host. Within one
 * process it never goes back; between processes it is as close as their clocks (microseconds on one host, whatever
 * NTP keeps between hosts, as OMB's end-to-end latency across workers).
 */
final class EpochNanos
{
    private static final long OFFSET = offset();

    private EpochNanos()
    {
    }

    static long now()
    {
        return System.nanoTime() + OFFSET;
    }

    /** What to add to {@link System#nanoTime()} for the wall clock: read once, with the clock's own precision. */
    private static long offset()
    {
        final long before = System.nanoTime();
        final Instant wall = Instant.now();
        final long after = System.nanoTime();
        final long wallNanos = wall.getEpochSecond() * 1_000_000_000L + wall.getNano();
        return wallNanos - (before + (after - before) / 2);
    }
}
