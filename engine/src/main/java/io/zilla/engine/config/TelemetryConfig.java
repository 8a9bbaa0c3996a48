/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zilla.engine.binding.Binding;
import io.zilla.engine.metrics.EngineMetrics;
import io.zilla.engine.metrics.Metric;

/**
 * The {@code telemetry} section.
 *
 * @param attributes constant labels of every exported series
 * @param metrics    the metrics the namespace records: names or patterns ending in {@code *}
 * @param exporters  the exporters, such as {@code stdout} for events, {@code prometheus} and {@code otlp} for metrics
 */
public record TelemetryConfig(Map<String, String> attributes, List<String> metrics, List<ComponentConfig> exporters)
{
    public static final TelemetryConfig EMPTY = new TelemetryConfig(Map.of(), List.of(), List.of());

    /** The exporter type that prints each event on stdout, one line each; it has no options. */
    public static final String STDOUT = "stdout";

    /** The exporter type that serves the recorded metrics for Prometheus to scrape. */
    public static final String PROMETHEUS = "prometheus";

    /** The exporter type that pushes the recorded metrics to an OpenTelemetry collector (OTLP/HTTP). */
    public static final String OTLP = "otlp";

    /** The exporter types the engine knows the options of: only these may be configured. */
    public static final Set<String> EXPORTER_TYPES = Set.of(STDOUT, PROMETHEUS, OTLP);

    /**
     * The metrics the engine records for every binding, whatever its type: the {@code stream.*} metrics of its stream
     * dispatcher. A binding type records its own too ({@link io.zilla.engine.binding.Binding#metrics()}).
     */
    public static final List<String> METRICS = EngineMetrics.STREAM.stream().map(Metric::name).toList();

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
     * The metrics recorded for a binding: among those its type records ({@code recordable}), those both the
     * namespace's and the binding's lists select (Zilla's rule; a binding without a list records none).
     */
    public static Set<String> selected(List<String> namespaceMetrics, List<String> bindingMetrics,
        Collection<String> recordable)
    {
        final Set<String> selected = new LinkedHashSet<>();
        for (String metric : recordable)
        {
            if (selects(namespaceMetrics, metric) && selects(bindingMetrics, metric))
            {
                selected.add(metric);
            }
        }
        return Set.copyOf(selected);
    }

    /** The names of the metrics a binding of this type records: the engine's and its type's own. */
    public static List<String> recordable(Binding type)
    {
        final List<String> names = new ArrayList<>(METRICS);
        if (type != null)
        {
            type.metrics().forEach(metric -> names.add(metric.name()));
        }
        return names;
    }
}
