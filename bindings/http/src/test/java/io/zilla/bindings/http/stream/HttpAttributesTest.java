/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.metrics.Histogram;
import io.zilla.engine.metrics.Metric;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;

/**
 * The label sets of a binding's attributes: one per distinct method and status, asked of the engine once each, in the
 * order zilla.yaml names them, and never more than {@link HttpAttributes#MAX_SETS}, whatever the requests.
 */
class HttpAttributesTest
{
    private final List<String> asked = new ArrayList<>();
    private final BindingMetrics metrics = new BindingMetrics()
    {
        @Override
        public boolean selects(Metric metric)
        {
            return true;
        }

        @Override
        public AtomicCounter counter(Metric metric)
        {
            return null;
        }

        @Override
        public AtomicCounter counter(Metric metric, String value)
        {
            return null;
        }

        @Override
        public Histogram histogram(Metric metric)
        {
            throw new AssertionError("a binding with attributes makes no series without labels");
        }

        @Override
        public Histogram histogram(Metric metric, String labels)
        {
            asked.add(metric.name() + "{" + labels + "}");
            return new Histogram(new UnsafeBuffer(new byte[Histogram.VALUES_LENGTH]), 0, metric.buckets());
        }
    };

    @Test
    void shouldAskOncePerLabelSetInTheOrderOfTheAttributes()
    {
        final Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("status", HttpAttributes.STATUS);
        attributes.put("method", HttpAttributes.METHOD);
        final HttpAttributes sets = new HttpAttributes(metrics, attributes);

        final Histogram[] first = sets.histograms(method("GET"), 200, HttpMetrics.HISTOGRAMS);
        assertSame(first, sets.histograms(method("GET"), 200, HttpMetrics.HISTOGRAMS));
        sets.histograms(method("DELETE"), 404, HttpMetrics.HISTOGRAMS);
        // a request that ended before its response began
        sets.histograms(method("BREW"), 0, HttpMetrics.HISTOGRAMS);

        assertEquals(List.of(
            "http.duration{status=200,method=GET}", "http.request.size{status=200,method=GET}",
            "http.response.size{status=200,method=GET}",
            "http.duration{status=404,method=DELETE}", "http.request.size{status=404,method=DELETE}",
            "http.response.size{status=404,method=DELETE}",
            "http.duration{status=none,method=_other}", "http.request.size{status=none,method=_other}",
            "http.response.size{status=none,method=_other}"), asked);
    }

    @Test
    void shouldKeepOneSetForWhatNoAttributeNames()
    {
        final HttpAttributes sets = new HttpAttributes(metrics, Map.of("code", HttpAttributes.STATUS));

        final Histogram[] get = sets.histograms(method("GET"), 200, HttpMetrics.HISTOGRAMS);
        assertSame(get, sets.histograms(method("POST"), 200, HttpMetrics.HISTOGRAMS));
        assertEquals(3, asked.size());
        assertEquals("http.duration{code=200}", asked.get(0));
    }

    @Test
    void shouldCountSetsBeyondTheLimitUnderOne()
    {
        final HttpAttributes sets = new HttpAttributes(metrics, Map.of("status", HttpAttributes.STATUS));
        for (int status = 100; status < 100 + HttpAttributes.MAX_SETS; status++)
        {
            sets.histograms(method("GET"), status, HttpMetrics.HISTOGRAMS);
        }
        assertEquals(HttpAttributes.MAX_SETS * 3, asked.size());

        final Histogram[] overflow = sets.histograms(method("GET"), 500, HttpMetrics.HISTOGRAMS);
        assertSame(overflow, sets.histograms(method("GET"), 503, HttpMetrics.HISTOGRAMS));
        assertEquals(HttpAttributes.MAX_SETS * 3 + 3, asked.size());
        assertEquals("http.duration{status=_other}", asked.get(HttpAttributes.MAX_SETS * 3));
        // a set made before the limit keeps its own series
        assertTrue(asked.contains("http.duration{status=100}"));
    }

    private static int method(String name)
    {
        final byte[] bytes = name.getBytes(StandardCharsets.US_ASCII);
        return HttpAttributes.methodIndex(new UnsafeBuffer(bytes), 0, bytes.length);
    }
}
