/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import org.HdrHistogram.Histogram;

/**
 * One statistics period of one worker or, {@link #plus merged}, of several, in the shape of OMB's {@code /period-stats}:
 * the period's counts, the running totals, and the period's latency histograms in microseconds (publish latency,
 * publish delay, end-to-end). Merging adds the counts and the histograms themselves, so the percentiles of a merged
 * period are exact, never averages of the workers' percentiles. A plain data holder for JSON.
 */
public final class PeriodStats
{
    /** The publish histograms' range and precision: up to 10 minutes in microseconds, 3 significant digits. */
    public static final long HIGHEST_MICROS = 600_000_000L;
    /** End to end up to 12 hours, as OMB: a backlog's messages wait as long as it takes to build (an hour or more). */
    public static final long HIGHEST_END_TO_END_MICROS = 43_200_000_000L;
    public static final int DIGITS = 3;

    public long messagesSent;
    public long messageSendErrors;
    public long bytesSent;
    public long messagesReceived;
    public long bytesReceived;

    public long totalMessagesSent;
    public long totalMessageSendErrors;
    public long totalMessagesReceived;

    @JsonSerialize(using = HistogramJson.Writer.class)
    @JsonDeserialize(using = HistogramJson.Reader.class)
    public Histogram publishLatency = newHistogram();

    @JsonSerialize(using = HistogramJson.Writer.class)
    @JsonDeserialize(using = HistogramJson.Reader.class)
    public Histogram publishDelayLatency = newHistogram();

    @JsonSerialize(using = HistogramJson.Writer.class)
    @JsonDeserialize(using = HistogramJson.Reader.class)
    public Histogram endToEndLatency = newEndToEndHistogram();

    public static Histogram newHistogram()
    {
        return new Histogram(HIGHEST_MICROS, DIGITS);
    }

    public static Histogram newEndToEndHistogram()
    {
        return new Histogram(HIGHEST_END_TO_END_MICROS, DIGITS);
    }

    /** A new period that is this one and {@code other} together. */
    public PeriodStats plus(PeriodStats other)
    {
        final PeriodStats sum = new PeriodStats();
        sum.messagesSent = messagesSent + other.messagesSent;
        sum.messageSendErrors = messageSendErrors + other.messageSendErrors;
        sum.bytesSent = bytesSent + other.bytesSent;
        sum.messagesReceived = messagesReceived + other.messagesReceived;
        sum.bytesReceived = bytesReceived + other.bytesReceived;
        sum.totalMessagesSent = totalMessagesSent + other.totalMessagesSent;
        sum.totalMessageSendErrors = totalMessageSendErrors + other.totalMessageSendErrors;
        sum.totalMessagesReceived = totalMessagesReceived + other.totalMessagesReceived;
        sum.publishLatency = merged(newHistogram(), publishLatency, other.publishLatency);
        sum.publishDelayLatency = merged(newHistogram(), publishDelayLatency, other.publishDelayLatency);
        sum.endToEndLatency = merged(newEndToEndHistogram(), endToEndLatency, other.endToEndLatency);
        return sum;
    }

    private static Histogram merged(Histogram sum, Histogram a, Histogram b)
    {
        sum.add(a);
        sum.add(b);
        return sum;
    }
}
