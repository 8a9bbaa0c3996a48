/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * zilla's figure over direct's (the acknowledged rate, a latency percentile), round by round, with how far the
 * rounds let one trust it. The two runs of a round are next to each other in time, so a round's ratio cancels most
 * of what moves the machine's speed over minutes (the broker's JIT still warming up, the host's other guests); what
 * is left shows as the spread of the ratios. The interval is Student's t over the logarithms of the ratios
 * ({@link PairedDifference} of the logarithms): ratios multiply, and a 0.8 and a 1.25 should cancel.
 *
 * @param rounds how many rounds had both targets
 * @param mean   the geometric mean of the round ratios
 * @param low    the lower end of its 95% confidence interval
 * @param high   the upper end
 */
record PairedRatio(int rounds, double mean, double low, double high)
{
    /** Of the ratios of the rounds; with fewer than two there is no interval (both ends are the mean). */
    static PairedRatio of(List<Double> ratios)
    {
        final List<Double> logs = new ArrayList<>(ratios.size());
        for (double ratio : ratios)
        {
            logs.add(Math.log(ratio));
        }
        final PairedDifference log = PairedDifference.of(logs);
        return new PairedRatio(log.rounds(), Math.exp(log.mean()), Math.exp(log.low()), Math.exp(log.high()));
    }
}
