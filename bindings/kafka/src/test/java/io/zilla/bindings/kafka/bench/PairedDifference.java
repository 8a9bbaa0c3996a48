/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.util.List;

/**
 * zilla's figure minus direct's, round by round (say the publish p50 in ms), with how far the rounds let one trust
 * it: the mean of the differences and its 95% confidence interval, Student's t over the rounds. The two runs of a
 * round are next to each other in time, so a round's difference cancels most of what moves the machine's speed
 * over minutes; what is left shows as the spread of the differences.
 *
 * @param rounds how many rounds had both targets
 * @param mean   the mean of the round differences
 * @param low    the lower end of its 95% confidence interval
 * @param high   the upper end
 */
record PairedDifference(int rounds, double mean, double low, double high)
{
    /** Student's t at 97.5% (two-sided 95%) for 1 to 30 degrees of freedom; 1.96 beyond. */
    private static final double[] T_975 = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };

    /** Of the differences of the rounds; with fewer than two there is no interval (both ends are the mean). */
    static PairedDifference of(List<Double> differences)
    {
        final int n = differences.size();
        if (n == 0)
        {
            return new PairedDifference(0, Double.NaN, Double.NaN, Double.NaN);
        }
        double sum = 0.0;
        for (double difference : differences)
        {
            sum += difference;
        }
        final double mean = sum / n;
        if (n == 1)
        {
            return new PairedDifference(1, mean, mean, mean);
        }
        double squares = 0.0;
        for (double difference : differences)
        {
            squares += (difference - mean) * (difference - mean);
        }
        final double standardError = Math.sqrt(squares / (n - 1) / n);
        final double t = n - 1 <= T_975.length ? T_975[n - 2] : 1.96;
        return new PairedDifference(n, mean, mean - t * standardError, mean + t * standardError);
    }
}
