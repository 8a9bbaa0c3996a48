/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.junit.jupiter.api.Test;

class ResultBuilderTest
{
    @Test
    void shouldListPercentilesUpToFiveNines()
    {
        final List<Double> percentiles = ResultBuilder.percentiles();
        assertEquals(0.0, percentiles.get(0));
        assertEquals(99.999, percentiles.get(percentiles.size() - 1));
        assertTrue(percentiles.contains(99.0) && percentiles.contains(99.9) && percentiles.contains(50.0));
    }
}
