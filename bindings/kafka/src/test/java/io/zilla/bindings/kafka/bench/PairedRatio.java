/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.util.List;

/**
 * zilla's rate over direct's, round by round, with how far the rounds let one trust it. The two runs of a round are
 * next to each other in time, so a round's ratio cancels most of what moves the machine's speed over minutes (the
 * broker's JIT still warming up, the host's other guests); what is left shows as the spread of the ratios. The
 * interval is Student's t over the logarithms of the ratios: ratios multiply, and a 0.8 and a 1.25 should cancel.
 *
 * @param rounds how many rounds had both targets
 * @param mean   the geometric mean of the round ratios
 * @param low    the lower end of its 95% confidence interval
 * @param high   the upper end
 */
record PairedRatio(int rounds, double mean, double low, double high)
{
    /** Student's t at 97.5% (two-sided 95%) for 1 to 30 degrees of freedom; 1.96 beyond. */
    private static final double[] T_975 = {
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
        2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
        2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042 };

    /** Of the ratios of the rounds; with fewer than two there is no interval (both ends are the mean). */
    static PairedRatio of(List<Double> ratios)
    {
        final int n = ratios.size();
        if (n == 0)
        {
            return new PairedRatio(0, Double.NaN, Double.NaN, Double.NaN);
        }
        double sum = 0.0;
        for (double ratio : ratios)
        {
            sum += Math.log(ratio);
        }
        final double meanLog = sum / n;
        if (n == 1)
        {
            final double mean = Math.exp(meanLog);
            return new PairedRatio(1, mean, mean, mean);
        }
        double squares = 0.0;
        for (double ratio : ratios)
        {
            final double deviation = Math.log(ratio) - meanLog;
            squares += deviation * deviation;
        }
        final double standardError = Math.sqrt(squares / (n - 1) / n);
        final double t = n - 1 <= T_975.length ? T_975[n - 2] : 1.96;
        return new PairedRatio(n, Math.exp(meanLog), Math.exp(meanLog - t * standardError),
            Math.exp(meanLog + t * standardError));
    }
}
