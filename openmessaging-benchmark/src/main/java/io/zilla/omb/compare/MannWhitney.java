/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.compare;

import java.util.ArrayList;
import java.util.List;

/**
 * The two-sided Mann-Whitney U test: whether one sample tends to be larger than the other, with no assumption about
 * the distribution (latency percentiles are far from normal). Normal approximation with tie and continuity
 * corrections; fine from about 4 values per side, conservative below.
 */
final class MannWhitney
{
    private MannWhitney()
    {
    }

    /** The p-value of "a and b come from the same distribution"; 1 when either side is empty or all values tie. */
    static double pValue(List<Double> a, List<Double> b)
    {
        final int n1 = a.size();
        final int n2 = b.size();
        if (n1 == 0 || n2 == 0)
        {
            return 1.0;
        }
        final List<double[]> all = new ArrayList<>();
        a.forEach(v -> all.add(new double[] {v, 0}));
        b.forEach(v -> all.add(new double[] {v, 1}));
        all.sort((x, y) -> Double.compare(x[0], y[0]));
        final int n = n1 + n2;
        double rankSumA = 0;
        double ties = 0;
        for (int i = 0; i < n;)
        {
            int j = i;
            while (j + 1 < n && all.get(j + 1)[0] == all.get(i)[0])
            {
                j++;
            }
            final double rank = (i + j) / 2.0 + 1;
            final int t = j - i + 1;
            ties += (double) t * t * t - t;
            for (int k = i; k <= j; k++)
            {
                if (all.get(k)[1] == 0)
                {
                    rankSumA += rank;
                }
            }
            i = j + 1;
        }
        final double u = rankSumA - n1 * (n1 + 1) / 2.0;
        final double mean = n1 * (double) n2 / 2.0;
        final double variance = n1 * (double) n2 / 12.0 * ((n + 1) - ties / ((double) n * (n - 1)));
        if (variance <= 0)
        {
            return 1.0;
        }
        final double z = Math.max(0, Math.abs(u - mean) - 0.5) / Math.sqrt(variance);
        return Math.min(1.0, 2 * (1 - phi(z)));
    }

    /** The standard normal distribution function (Abramowitz and Stegun 7.1.26 for erf, error below 1.5e-7). */
    static double phi(double z)
    {
        final double x = Math.abs(z) / Math.sqrt(2);
        final double t = 1 / (1 + 0.3275911 * x);
        final double poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
        final double erf = 1 - poly * Math.exp(-x * x);
        return z >= 0 ? 0.5 * (1 + erf) : 0.5 * (1 - erf);
    }
}
