/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import java.util.List;
import java.util.TreeMap;

import io.zilla.omb.result.TestResult;
import io.zilla.omb.worker.PeriodStats;
import org.HdrHistogram.Histogram;

/**
 * Fills a {@link TestResult} from the measured phase: one entry per period in the lists, and the histograms of all
 * periods added up for the aggregated scalars and the quantile maps.
 */
final class ResultBuilder
{
    private static final double MICROS_PER_MILLI = 1000.0;

    private final TestResult result;
    private final Histogram publishLatency = PeriodStats.newHistogram();
    private final Histogram publishDelay = PeriodStats.newHistogram();
    private final Histogram endToEnd = PeriodStats.newEndToEndHistogram();

    ResultBuilder(TestResult result, double periodSeconds)
    {
        this.result = result;
        result.statsPeriodSeconds = periodSeconds;
    }

    /**
     * Adds one period of all workers; {@code seconds} is its actual length, {@code backlog} the messages not yet
     * consumed.
     */
    void add(PeriodStats period, double seconds, long backlog)
    {
        result.publishRate.add(period.messagesSent / seconds);
        result.publishErrorRate.add(period.messageSendErrors / seconds);
        result.consumeRate.add(period.messagesReceived / seconds);
        result.backlog.add(backlog);

        final Histogram publish = period.publishLatency;
        result.publishLatencyAvg.add(publish.getMean() / MICROS_PER_MILLI);
        result.publishLatency50pct.add(millis(publish, 50));
        result.publishLatency75pct.add(millis(publish, 75));
        result.publishLatency95pct.add(millis(publish, 95));
        result.publishLatency99pct.add(millis(publish, 99));
        result.publishLatency999pct.add(millis(publish, 99.9));
        result.publishLatency9999pct.add(millis(publish, 99.99));
        result.publishLatencyMax.add(publish.getMaxValue() / MICROS_PER_MILLI);

        final Histogram delay = period.publishDelayLatency;
        result.publishDelayLatencyAvg.add(delay.getMean());
        result.publishDelayLatency50pct.add(delay.getValueAtPercentile(50));
        result.publishDelayLatency75pct.add(delay.getValueAtPercentile(75));
        result.publishDelayLatency95pct.add(delay.getValueAtPercentile(95));
        result.publishDelayLatency99pct.add(delay.getValueAtPercentile(99));
        result.publishDelayLatency999pct.add(delay.getValueAtPercentile(99.9));
        result.publishDelayLatency9999pct.add(delay.getValueAtPercentile(99.99));
        result.publishDelayLatencyMax.add(delay.getMaxValue());

        final Histogram e2e = period.endToEndLatency;
        result.endToEndLatencyAvg.add(e2e.getMean() / MICROS_PER_MILLI);
        result.endToEndLatency50pct.add(millis(e2e, 50));
        result.endToEndLatency75pct.add(millis(e2e, 75));
        result.endToEndLatency95pct.add(millis(e2e, 95));
        result.endToEndLatency99pct.add(millis(e2e, 99));
        result.endToEndLatency999pct.add(millis(e2e, 99.9));
        result.endToEndLatency9999pct.add(millis(e2e, 99.99));
        result.endToEndLatencyMax.add(e2e.getMaxValue() / MICROS_PER_MILLI);

        publishLatency.add(publish);
        publishDelay.add(delay);
        endToEnd.add(e2e);
    }

    TestResult build()
    {
        result.aggregatedPublishLatencyAvg = publishLatency.getMean() / MICROS_PER_MILLI;
        result.aggregatedPublishLatency50pct = millis(publishLatency, 50);
        result.aggregatedPublishLatency75pct = millis(publishLatency, 75);
        result.aggregatedPublishLatency95pct = millis(publishLatency, 95);
        result.aggregatedPublishLatency99pct = millis(publishLatency, 99);
        result.aggregatedPublishLatency999pct = millis(publishLatency, 99.9);
        result.aggregatedPublishLatency9999pct = millis(publishLatency, 99.99);
        result.aggregatedPublishLatencyMax = publishLatency.getMaxValue() / MICROS_PER_MILLI;

        result.aggregatedPublishDelayLatencyAvg = publishDelay.getMean();
        result.aggregatedPublishDelayLatency50pct = publishDelay.getValueAtPercentile(50);
        result.aggregatedPublishDelayLatency75pct = publishDelay.getValueAtPercentile(75);
        result.aggregatedPublishDelayLatency95pct = publishDelay.getValueAtPercentile(95);
        result.aggregatedPublishDelayLatency99pct = publishDelay.getValueAtPercentile(99);
        result.aggregatedPublishDelayLatency999pct = publishDelay.getValueAtPercentile(99.9);
        result.aggregatedPublishDelayLatency9999pct = publishDelay.getValueAtPercentile(99.99);
        result.aggregatedPublishDelayLatencyMax = publishDelay.getMaxValue();

        result.aggregatedEndToEndLatencyAvg = endToEnd.getMean() / MICROS_PER_MILLI;
        result.aggregatedEndToEndLatency50pct = millis(endToEnd, 50);
        result.aggregatedEndToEndLatency75pct = millis(endToEnd, 75);
        result.aggregatedEndToEndLatency95pct = millis(endToEnd, 95);
        result.aggregatedEndToEndLatency99pct = millis(endToEnd, 99);
        result.aggregatedEndToEndLatency999pct = millis(endToEnd, 99.9);
        result.aggregatedEndToEndLatency9999pct = millis(endToEnd, 99.99);
        result.aggregatedEndToEndLatencyMax = endToEnd.getMaxValue() / MICROS_PER_MILLI;

        final TreeMap<Double, Double> publishQuantiles = new TreeMap<>();
        final TreeMap<Double, Long> delayQuantiles = new TreeMap<>();
        final TreeMap<Double, Double> endToEndQuantiles = new TreeMap<>();
        for (double percentile : percentiles())
        {
            publishQuantiles.put(percentile, millis(publishLatency, percentile));
            delayQuantiles.put(percentile, publishDelay.getValueAtPercentile(percentile));
            endToEndQuantiles.put(percentile, millis(endToEnd, percentile));
        }
        result.aggregatedPublishLatencyQuantiles = publishQuantiles;
        result.aggregatedPublishDelayLatencyQuantiles = delayQuantiles;
        result.aggregatedEndToEndLatencyQuantiles = endToEndQuantiles;
        return result;
    }

    /**
     * The percentiles of the quantile maps: ten per decade of {@code 1 / (1 - p)} (so evenly spaced on the log scale
     * the chart draws them on) from 0 to 99.999, plus the usual round ones.
     */
    static List<Double> percentiles()
    {
        final TreeMap<Double, Boolean> levels = new TreeMap<>();
        for (int tenth = 0; tenth <= 50; tenth++)
        {
            final double percentile = 100.0 * (1.0 - Math.pow(10, -tenth / 10.0));
            levels.put(Math.round(percentile * 10_000.0) / 10_000.0, true);
        }
        for (double percentile : new double[] {50, 75, 90, 95, 99, 99.9, 99.99})
        {
            levels.put(percentile, true);
        }
        return List.copyOf(levels.keySet());
    }

    private static double millis(Histogram histogram, double percentile)
    {
        return histogram.getValueAtPercentile(percentile) / MICROS_PER_MILLI;
    }
}
