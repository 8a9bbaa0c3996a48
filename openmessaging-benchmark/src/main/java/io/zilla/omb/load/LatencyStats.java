/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * What the producers and consumers record, from any thread, without locks: HdrHistogram {@link Recorder}s in
 * microseconds (publish latency from the actual send, publish delay from the intended send to the actual one,
 * end-to-end latency from the payload's nanosecond stamp) and counters. {@link #period()} takes the histograms and
 * counts since the previous call.
 */
final class LatencyStats
{
    static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);
    private static final int DIGITS = 3;

    private final Recorder publishLatency = new Recorder(HIGHEST_MICROS, DIGITS);
    private final Recorder publishDelay = new Recorder(HIGHEST_MICROS, DIGITS);
    private final Recorder endToEnd = new Recorder(HIGHEST_MICROS, DIGITS);

    private final LongAdder sent = new LongAdder();
    private final LongAdder acked = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder receivedBytes = new LongAdder();
    private final AtomicLong totalSent = new AtomicLong();
    private final AtomicLong totalReceived = new AtomicLong();

    void onSent()
    {
        sent.increment();
        totalSent.incrementAndGet();
    }

    void onAcked(long publishNanos, long delayNanos)
    {
        acked.increment();
        publishLatency.recordValue(micros(publishNanos));
        publishDelay.recordValue(micros(delayNanos));
    }

    void onError()
    {
        errors.increment();
    }

    void onReceived(int bytes, long endToEndNanos)
    {
        received.increment();
        receivedBytes.add(bytes);
        totalReceived.incrementAndGet();
        endToEnd.recordValue(micros(endToEndNanos));
    }

    long totalSent()
    {
        return totalSent.get();
    }

    long totalReceived()
    {
        return totalReceived.get();
    }

    /** The histograms and counts since the previous call (or since this was made). */
    Period period()
    {
        return new Period(
            sent.sumThenReset(), acked.sumThenReset(), errors.sumThenReset(), received.sumThenReset(),
            receivedBytes.sumThenReset(),
            publishLatency.getIntervalHistogram(), publishDelay.getIntervalHistogram(), endToEnd.getIntervalHistogram());
    }

    private static long micros(long nanos)
    {
        return Math.max(0, Math.min(HIGHEST_MICROS, TimeUnit.NANOSECONDS.toMicros(nanos)));
    }

    /** One period's counts and histograms (microseconds). */
    record Period(
        long sent,
        long acked,
        long errors,
        long received,
        long receivedBytes,
        Histogram publishLatency,
        Histogram publishDelay,
        Histogram endToEnd)
    {
    }
}
