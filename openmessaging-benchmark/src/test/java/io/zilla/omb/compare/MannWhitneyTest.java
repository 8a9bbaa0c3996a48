/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class MannWhitneyTest
{
    @Test
    void shouldFindNoDifferenceBetweenInterleavedSamples()
    {
        final List<Double> a = List.of(1.0, 3.0, 5.0, 7.0, 9.0, 11.0);
        final List<Double> b = List.of(2.0, 4.0, 6.0, 8.0, 10.0, 12.0);
        assertTrue(MannWhitney.pValue(a, b) > 0.5);
    }

    @Test
    void shouldFindDifferenceBetweenSeparatedSamples()
    {
        final List<Double> a = List.of(1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7);
        final List<Double> b = List.of(2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7);
        // U = 0 for 8 and 8: the normal approximation gives p of about 0.0009
        final double p = MannWhitney.pValue(a, b);
        assertTrue(p < 0.002 && p > 0.0003, () -> "p " + p);
    }

    @Test
    void shouldTreatAllTiesAndEmptySamplesAsNoDifference()
    {
        assertEquals(1.0, MannWhitney.pValue(List.of(1.0, 1.0), List.of(1.0, 1.0)));
        assertEquals(1.0, MannWhitney.pValue(List.of(), List.of(1.0)));
    }

    @Test
    void shouldComputeNormalDistribution()
    {
        assertEquals(0.5, MannWhitney.phi(0), 1e-7);
        assertEquals(0.975, MannWhitney.phi(1.959964), 1e-6);
        assertEquals(0.025, MannWhitney.phi(-1.959964), 1e-6);
    }
}
