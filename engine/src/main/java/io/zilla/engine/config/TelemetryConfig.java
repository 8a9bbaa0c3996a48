/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code telemetry} section.
 *
 * @param attributes constant labels of every exported series
 * @param metrics    the metrics the namespace records: names or patterns ending in {@code *}
 * @param exporters  the exporters, such as {@code stdout} for events and {@code prometheus} for metrics
 */
public record TelemetryConfig(Map<String, String> attributes, List<String> metrics, List<ComponentConfig> exporters)
{
    public static final TelemetryConfig EMPTY = new TelemetryConfig(Map.of(), List.of(), List.of());

    /** The exporter type that prints each event on stdout, one line each; it has no options. */
    public static final String STDOUT = "stdout";

    /** The exporter type that serves the recorded metrics for Prometheus to scrape. */
    public static final String PROMETHEUS = "prometheus";

    /** The exporter types the engine knows the options of: only these may be configured. */
    public static final Set<String> EXPORTER_TYPES = Set.of(STDOUT, PROMETHEUS);

    /**
     * The metrics zilla records so far, all kept by the engine's stream dispatcher for each selected binding:
     * received counts the frames delivered to the binding, sent the frames it writes.
     */
    public static final List<String> METRICS = List.of(
        "stream.opens.received", "stream.opens.sent",
        "stream.closes.received", "stream.closes.sent",
        "stream.errors.received", "stream.errors.sent",
        "stream.data.received", "stream.data.sent",
        "stream.active.received", "stream.active.sent");

    public TelemetryConfig
    {
        attributes = Map.copyOf(attributes);
        metrics = List.copyOf(metrics);
        exporters = List.copyOf(exporters);
    }

    public TelemetryConfig(List<ComponentConfig> exporters)
    {
        this(Map.of(), List.of(), exporters);
    }

    /** Whether a name or a pattern ending in {@code *} selects the metric. */
    public static boolean selects(String pattern, String metric)
    {
        return pattern.endsWith("*")
            ? metric.startsWith(pattern.substring(0, pattern.length() - 1))
            : pattern.equals(metric);
    }

    /** Whether any of the patterns selects the metric. */
    public static boolean selects(List<String> patterns, String metric)
    {
        for (String pattern : patterns)
        {
            if (selects(pattern, metric))
            {
                return true;
            }
        }
        return false;
    }

    /**
     * The metrics recorded for a binding: those both the namespace's and the binding's lists select (Zilla's rule;
     * a binding without a list records none).
     */
    public static Set<String> selected(List<String> namespaceMetrics, List<String> bindingMetrics)
    {
        final Set<String> selected = new LinkedHashSet<>();
        for (String metric : METRICS)
        {
            if (selects(namespaceMetrics, metric) && selects(bindingMetrics, metric))
            {
                selected.add(metric);
            }
        }
        return Set.copyOf(selected);
    }
}
