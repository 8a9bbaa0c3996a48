/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard reads only series zilla exports (a renamed metric would leave a panel empty, silently), and
 * is laid out as Grafana needs it. PrometheusServerTest runs its expressions against a real Prometheus.
 */
class DashboardTest
{
    @Test
    void shouldReadOnlySeriesZillaExports() throws Exception
    {
        final Set<String> exportable = Dashboard.exportable();
        final Set<String> read = new HashSet<>();
        for (String expression : Dashboard.expressions())
        {
            final Set<String> series = Dashboard.series(expression);
            assertFalse(series.isEmpty(), "reads no zilla series: " + expression);
            for (String name : series)
            {
                assertTrue(exportable.contains(name), name + " is not a series zilla exports (" + expression + ")");
            }
            read.addAll(series);
            // every panel can be narrowed to the chosen namespace, and but for the engine's own to the chosen bindings
            assertTrue(expression.contains("namespace=~\"$namespace\""), expression);
            final boolean engineOnly = series.stream().allMatch(name -> name.startsWith("engine_"));
            assertTrue(expression.contains("binding=~\"$binding\"") || engineOnly, expression);
        }
        // each area zilla records has a panel
        for (String prefix : List.of("http_", "stream_", "sse_", "tls_", "kafka_", "engine_"))
        {
            assertTrue(read.stream().anyMatch(name -> name.startsWith(prefix)), "no panel reads " + prefix + "*");
        }
    }

    @Test
    void shouldGiveEachPanelAnIdAPlaceAndTheDatasourceVariable() throws Exception
    {
        final JsonNode dashboard = new ObjectMapper().readTree(Dashboard.FILE.toFile());
        assertEquals("zilla", dashboard.path("uid").asText());
        final Set<Integer> ids = new HashSet<>();
        for (JsonNode panel : dashboard.path("panels"))
        {
            assertTrue(ids.add(panel.path("id").asInt()), "two panels with id " + panel.path("id"));
            assertTrue(panel.path("gridPos").has("w") && panel.path("gridPos").has("y"), panel.toString());
            assertFalse(panel.path("title").asText().isEmpty(), panel.toString());
            if (!"row".equals(panel.path("type").asText()))
            {
                assertEquals("${datasource}", panel.path("datasource").path("uid").asText(), panel.path("title").asText());
            }
        }
        final Set<String> variables = new HashSet<>();
        dashboard.path("templating").path("list").forEach(variable -> variables.add(variable.path("name").asText()));
        assertEquals(Set.of("datasource", "namespace", "binding"), variables);
    }

    @Test
    void shouldNameByteCountersAsMicrometerDoes()
    {
        // Dashboard.exportable assumes Micrometer adds a unit the name does not end with already
        final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        try
        {
            FunctionCounter.builder("kafka.fetch.bytes", this, test -> 1.0).baseUnit("bytes").register(registry);
            FunctionCounter.builder("stream.data.sent", this, test -> 1.0).baseUnit("bytes").register(registry);
            final String scrape = registry.scrape();
            assertTrue(scrape.contains("kafka_fetch_bytes_total 1.0"), scrape);
            assertTrue(scrape.contains("stream_data_sent_bytes_total 1.0"), scrape);
            assertTrue(Dashboard.exportable().containsAll(Set.of("kafka_fetch_bytes_total", "stream_data_sent_bytes_total")));
        }
        finally
        {
            registry.close();
        }
    }
}
