/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class PairedRatioTest
{
    @Test
    void shouldCancelRatiosThatMultiplyToOne()
    {
        final PairedRatio paired = PairedRatio.of(List.of(0.8, 1.25));

        assertEquals(1.0, paired.mean(), 1e-12);
        assertTrue(paired.low() < 0.8 && paired.high() > 1.25, paired.toString());
    }

    @Test
    void shouldNarrowTheIntervalAsRoundsAgree()
    {
        final PairedRatio spread = PairedRatio.of(List.of(0.9, 1.0, 1.1, 0.95));
        final PairedRatio tight = PairedRatio.of(List.of(0.99, 1.0, 1.01, 1.0));

        assertTrue(tight.high() - tight.low() < (spread.high() - spread.low()) / 5, tight + " vs " + spread);
        assertEquals(4, tight.rounds());
    }

    @Test
    void shouldUseStudentsTForFewRounds()
    {
        // logs 0 and ln 2: mean ln 2 / 2, standard error ln 2 / 2, t(1 df) 12.706
        final PairedRatio paired = PairedRatio.of(List.of(1.0, 2.0));

        assertEquals(Math.sqrt(2.0), paired.mean(), 1e-12);
        assertEquals(Math.exp(Math.log(2.0) / 2 * (1 - 12.706)), paired.low(), 1e-9);
        assertEquals(Math.exp(Math.log(2.0) / 2 * (1 + 12.706)), paired.high(), 1e-6);
    }

    @Test
    void shouldGiveNoIntervalForOneRound()
    {
        final PairedRatio paired = PairedRatio.of(List.of(0.97));

        assertEquals(0.97, paired.low(), 1e-12);
        assertEquals(0.97, paired.high(), 1e-12);
        assertTrue(Double.isNaN(PairedRatio.of(List.of()).mean()));
    }
}
