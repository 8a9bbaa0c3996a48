/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class PairedDifferenceTest
{
    @Test
    void shouldAverageTheRoundsWithStudentsT()
    {
        // mean 0.08; deviations -0.02, 0, +0.02: sample variance 0.0004, standard error 0.02 / sqrt(3); t(2 df) 4.303
        final PairedDifference paired = PairedDifference.of(List.of(0.06, 0.08, 0.10));

        final double halfWidth = 4.303 * 0.02 / Math.sqrt(3.0);
        assertEquals(3, paired.rounds());
        assertEquals(0.08, paired.mean(), 1e-12);
        assertEquals(0.08 - halfWidth, paired.low(), 1e-12);
        assertEquals(0.08 + halfWidth, paired.high(), 1e-12);
    }

    @Test
    void shouldUseTheNormalQuantileBeyondThirtyDegreesOfFreedom()
    {
        final Double[] differences = new Double[40];
        for (int i = 0; i < differences.length; i++)
        {
            differences[i] = i % 2 == 0 ? 1.0 : -1.0;
        }
        final PairedDifference paired = PairedDifference.of(List.of(differences));

        // mean 0, sample standard deviation sqrt(40 / 39)
        assertEquals(0.0, paired.mean(), 1e-12);
        assertEquals(1.96 * Math.sqrt(40.0 / 39.0 / 40.0), paired.high(), 1e-12);
    }

    @Test
    void shouldGiveNoIntervalForOneRound()
    {
        final PairedDifference paired = PairedDifference.of(List.of(0.09));

        assertEquals(0.09, paired.low(), 1e-12);
        assertEquals(0.09, paired.high(), 1e-12);
        assertTrue(Double.isNaN(PairedDifference.of(List.of()).mean()));
    }
}
