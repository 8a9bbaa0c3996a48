/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

/**
 * The publish rate of a {@code producerRate: 0} workload, adjusted as OMB's rate controller adjusts it: from
 * {@link #START_RATE}, every {@link #PERIOD_MILLIS} for the whole run (warmup and test), from the totals of messages
 * acknowledged and received.
 * <ul>
 * <li>More than {@link #RECEIVE_BACKLOG_LIMIT} messages acknowledged but not received: the consumers fall behind; the
 * next rate is what they took, or less by the backlog.</li>
 * <li>More than {@link #PUBLISH_BACKLOG_LIMIT} messages short of what the rate asked for in the period: the producers
 * fall behind; the next rate is what was acknowledged, or less by the shortfall.</li>
 * <li>Otherwise the rate grows by the ramping factor, which doubles after each good period (up to 1: the rate
 * doubles) and halves after each bad one (down to 0.01).</li>
 * </ul>
 * As OMB's, the receive backlog compares acknowledged with received messages without counting subscriptions: a
 * workload with several subscriptions per topic receives each message that many times, and never looks behind.
 */
public final class RateController
{
    public static final double START_RATE = 10_000;
    public static final long PERIOD_MILLIS = 3_000;
    static final long PUBLISH_BACKLOG_LIMIT = 1_000;
    static final long RECEIVE_BACKLOG_LIMIT = 1_000;
    static final double MIN_RAMPING_FACTOR = 0.01;
    static final double MAX_RAMPING_FACTOR = 1.0;

    private double rampingFactor = MAX_RAMPING_FACTOR;
    private long previousPublished;
    private long previousReceived;

    /**
     * @param rate the rate of the period that just ended, messages per second
     * @param periodNanos its length
     * @param totalPublished messages acknowledged since the start, all producers
     * @param totalReceived messages received since the start, all consumers
     * @return the rate for the next period
     */
    public double nextRate(double rate, long periodNanos, long totalPublished, long totalReceived)
    {
        final double seconds = periodNanos / 1e9;
        final long expected = (long) (rate * seconds);
        final long published = totalPublished - previousPublished;
        final long received = totalReceived - previousReceived;
        previousPublished = totalPublished;
        previousReceived = totalReceived;

        final long receiveBacklog = totalPublished - totalReceived;
        if (receiveBacklog > RECEIVE_BACKLOG_LIMIT)
        {
            rampingFactor = Math.max(MIN_RAMPING_FACTOR, rampingFactor / 2);
            final long next = Math.max(0, expected - receiveBacklog);
            return Math.min(received / seconds, next / seconds);
        }
        final long publishBacklog = expected - published;
        if (publishBacklog > PUBLISH_BACKLOG_LIMIT)
        {
            rampingFactor = Math.max(MIN_RAMPING_FACTOR, rampingFactor / 2);
            final long next = Math.max(0, expected - publishBacklog);
            return Math.min(published / seconds, next / seconds);
        }
        rampingFactor = Math.min(MAX_RAMPING_FACTOR, rampingFactor * 2);
        return rate + rate * rampingFactor;
    }

    double rampingFactor()
    {
        return rampingFactor;
    }
}
