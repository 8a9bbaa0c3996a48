/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;

class RateControllerTest
{
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    @Test
    void shouldDoubleWhileEverythingKeepsUp()
    {
        final RateController controller = new RateController();
        assertEquals(20_000, controller.nextRate(10_000, SECOND, 10_000, 10_000), 0.0);
        assertEquals(1.0, controller.rampingFactor());
    }

    @Test
    void shouldFallBackToWhatTheConsumersTookWhenTheyLag()
    {
        final RateController controller = new RateController();
        controller.nextRate(10_000, SECOND, 10_000, 10_000);
        // 20,000 asked for, 10,000 more acknowledged, 5,000 more received: 5,000 behind, the consumers' rate wins
        assertEquals(5_000, controller.nextRate(20_000, SECOND, 20_000, 15_000), 0.0);
        assertEquals(0.5, controller.rampingFactor());
    }

    @Test
    void shouldFallBackToWhatWasAcknowledgedWhenTheProducersLag()
    {
        final RateController controller = new RateController();
        controller.nextRate(10_000, SECOND, 10_000, 10_000);
        // 20,000 asked for, 5,000 more acknowledged: 15,000 short
        assertEquals(5_000, controller.nextRate(20_000, SECOND, 15_000, 20_000), 0.0);
        assertEquals(0.5, controller.rampingFactor());
    }

    @Test
    void shouldRampBackUpAfterALag()
    {
        final RateController controller = new RateController();
        assertEquals(5_000, controller.nextRate(10_000, SECOND, 10_000, 5_000), 0.0);
        assertEquals(0.5, controller.rampingFactor());
        assertEquals(10_000, controller.nextRate(5_000, SECOND, 20_000, 20_000), 0.0);
        assertEquals(1.0, controller.rampingFactor());
    }

    @Test
    void shouldNeverRampSlowerThanTheMinimumFactor()
    {
        final RateController controller = new RateController();
        for (int i = 0; i < 20; i++)
        {
            controller.nextRate(10_000, SECOND, 0, 0);
        }
        assertEquals(0.01, controller.rampingFactor());
    }
}
