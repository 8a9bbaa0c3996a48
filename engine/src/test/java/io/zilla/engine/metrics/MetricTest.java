/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import org.junit.jupiter.api.Test;

class MetricTest
{
    @Test
    void shouldNameEachSeriesOfALabelledCounterByItsValue()
    {
        final Metric failures = Metric.counter("tls.handshake.failures", MetricUnit.COUNT, "failed", "reason", "peer", "other");

        assertEquals("tls.handshake.failures{reason=peer}", failures.seriesName("peer"));
        assertEquals(List.of("peer", "other"), failures.values());
        assertEquals("http.duration", Metric.histogram("http.duration", MetricUnit.NANOSECONDS, "d", Buckets.DURATIONS)
            .seriesName(""));
    }

    @Test
    void shouldRefuseWhatNoExporterCouldShow()
    {
        // a histogram without buckets, buckets on a counter, a label without values or on a gauge
        assertThrows(IllegalArgumentException.class,
            () -> new Metric("a", MetricKind.HISTOGRAM, MetricUnit.COUNT, "", null, null, List.of()));
        assertThrows(IllegalArgumentException.class,
            () -> new Metric("a", MetricKind.COUNTER, MetricUnit.COUNT, "", Buckets.SIZES, null, List.of()));
        assertThrows(IllegalArgumentException.class, () -> Metric.counter("a", MetricUnit.COUNT, "", "reason"));
        assertThrows(IllegalArgumentException.class,
            () -> new Metric("a", MetricKind.GAUGE, MetricUnit.COUNT, "", null, "reason", List.of("x")));
    }
}
