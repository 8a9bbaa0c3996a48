/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

import org.HdrHistogram.Recorder;

/**
 * What one worker's producers and consumers record, from any thread, without locks: HdrHistogram {@link Recorder}s in
 * microseconds (publish latency from the actual send to the acknowledgement, publish delay from the intended send to
 * the actual one, end-to-end latency from the payload's stamp) and counters. {@link #period()} takes the histograms and
 * counts since the previous call; the totals run on.
 */
final class WorkerStats
{
    private final Recorder publishLatency = new Recorder(PeriodStats.HIGHEST_MICROS, PeriodStats.DIGITS);
    private final Recorder publishDelay = new Recorder(PeriodStats.HIGHEST_MICROS, PeriodStats.DIGITS);
    private final Recorder endToEnd = new Recorder(PeriodStats.HIGHEST_END_TO_END_MICROS, PeriodStats.DIGITS);

    private final LongAdder sent = new LongAdder();
    private final LongAdder bytesSent = new LongAdder();
    private final LongAdder errors = new LongAdder();
    private final LongAdder received = new LongAdder();
    private final LongAdder bytesReceived = new LongAdder();
    private final LongAdder totalSent = new LongAdder();
    private final LongAdder totalErrors = new LongAdder();
    private final LongAdder totalReceived = new LongAdder();

    /** A message the system acknowledged: OMB counts a message as sent then. */
    void onAcked(int bytes, long publishNanos, long delayNanos)
    {
        sent.increment();
        totalSent.increment();
        bytesSent.add(bytes);
        publishLatency.recordValue(micros(publishNanos, PeriodStats.HIGHEST_MICROS));
        publishDelay.recordValue(micros(delayNanos, PeriodStats.HIGHEST_MICROS));
    }

    /** A probe acknowledged: in the totals, as OMB's probe, not in a period's rate or latencies. */
    void onProbed()
    {
        totalSent.increment();
    }

    void onError()
    {
        errors.increment();
        totalErrors.increment();
    }

    /** A message received; its end-to-end latency is recorded only when positive, as OMB records it. */
    void onReceived(int bytes, long endToEndNanos)
    {
        received.increment();
        totalReceived.increment();
        bytesReceived.add(bytes);
        if (endToEndNanos > 0)
        {
            endToEnd.recordValue(micros(endToEndNanos, PeriodStats.HIGHEST_END_TO_END_MICROS));
        }
    }

    CountersStats counters()
    {
        return new CountersStats(totalSent.sum(), totalReceived.sum(), totalErrors.sum());
    }

    /** The histograms and counts since the previous call (or since this was made, or reset). */
    PeriodStats period()
    {
        final PeriodStats period = new PeriodStats();
        period.messagesSent = sent.sumThenReset();
        period.messageSendErrors = errors.sumThenReset();
        period.bytesSent = bytesSent.sumThenReset();
        period.messagesReceived = received.sumThenReset();
        period.bytesReceived = bytesReceived.sumThenReset();
        period.totalMessagesSent = totalSent.sum();
        period.totalMessageSendErrors = totalErrors.sum();
        period.totalMessagesReceived = totalReceived.sum();
        period.publishLatency = publishLatency.getIntervalHistogram();
        period.publishDelayLatency = publishDelay.getIntervalHistogram();
        period.endToEndLatency = endToEnd.getIntervalHistogram();
        return period;
    }

    /** Everything back to zero, totals too: a new driver's run starts here. */
    void resetAll()
    {
        period();
        totalSent.reset();
        totalErrors.reset();
        totalReceived.reset();
    }

    private static long micros(long nanos, long highest)
    {
        return Math.max(0, Math.min(highest, TimeUnit.NANOSECONDS.toMicros(nanos)));
    }
}
