/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.exporter;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.metrics.EngineMetrics;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricKind;

/**
 * One series an exporter exports for the namespace now running: a binding's selected metric (a labelled counter once
 * per value of its label), or one of the engine's own that the namespace's {@code telemetry.metrics} selects. Every
 * exporter walks the same list ({@link #of}), so that they agree on what is exported.
 *
 * @param binding the binding's name; null for the engine's own, which have no binding label
 * @param metric  its declaration
 * @param value   the label's value of a labelled counter; empty otherwise
 * @param key     what identifies the series across reloads: the namespace's name and attributes (labels of every
 *                series) with the series' scope and name, so that a reload that changes them registers anew
 */
public record ExportedSeries(String binding, Metric metric, String value, String key)
{
    /** Where its values are in the workers' files: the binding's name, or {@link EngineMetrics#ENGINE_SCOPE}. */
    public String scope()
    {
        return binding != null ? binding : EngineMetrics.ENGINE_SCOPE;
    }

    /** Its name in the workers' counters files ({@link Metric#seriesName}). */
    public String seriesName()
    {
        return metric.seriesName(value);
    }

    /** The series of the namespace: each binding's selected metrics in order, then the engine's selected ones. */
    public static List<ExportedSeries> of(NamespaceConfig config, Map<String, Metric> declarations)
    {
        final String prefix = config.name() + " " + config.telemetry().attributes() + " ";
        final List<ExportedSeries> series = new ArrayList<>();
        for (BindingConfig binding : config.bindings())
        {
            for (String name : binding.metrics())
            {
                final Metric metric = declarations.get(name);
                if (metric != null)
                {
                    // a histogram's labelled series are those recorded so far: see recorded
                    final boolean perValue = metric.label() != null && metric.kind() != MetricKind.HISTOGRAM;
                    for (String value : perValue ? metric.values() : List.of(""))
                    {
                        series.add(new ExportedSeries(binding.name(), metric, value,
                            prefix + binding.name() + ":" + metric.seriesName(value)));
                    }
                }
            }
        }
        for (Metric metric : declarations.values())
        {
            if (EngineMetrics.ENGINE.contains(metric) && TelemetryConfig.selects(config.telemetry().metrics(), metric.name()))
            {
                series.add(new ExportedSeries(null, metric, "", prefix + metric.name()));
            }
        }
        return series;
    }

    /**
     * The series of this histogram to export, from those the workers recorded ({@code names}, the scope's names in the
     * histograms files): each recorded one, plain or labelled ({@code http.duration{method=GET,status=200}}), with its
     * labels in order. A histogram whose series are all labelled (by its metric's label, or by the binding's
     * attributes) has none until a first value; a plain one is there from the start, empty.
     *
     * @return series name to its labels
     */
    public Map<String, Map<String, String>> recorded(Collection<String> names, NamespaceConfig config)
    {
        final Map<String, Map<String, String>> recorded = new LinkedHashMap<>();
        final String prefix = metric.name() + "{";
        for (String name : names)
        {
            if (name.equals(metric.name()) || name.startsWith(prefix) && name.endsWith("}"))
            {
                recorded.put(name, labels(name));
            }
        }
        final BindingConfig bound = binding != null ? config.binding(binding) : null;
        final boolean labelled = metric.label() != null || bound != null && !bound.attributes().isEmpty();
        if (recorded.isEmpty() && !labelled)
        {
            recorded.put(metric.name(), Map.of());
        }
        return recorded;
    }

    /** The metric's name of a series name: what comes before its labels. */
    public static String metricOf(String seriesName)
    {
        final int open = seriesName.indexOf('{');
        return open >= 0 ? seriesName.substring(0, open) : seriesName;
    }

    /** The labels of a series name, {@code name=value} pairs in braces after the metric's name, in order. */
    public static Map<String, String> labels(String seriesName)
    {
        final int open = seriesName.indexOf('{');
        if (open < 0 || !seriesName.endsWith("}"))
        {
            return Map.of();
        }
        final Map<String, String> labels = new LinkedHashMap<>();
        for (String pair : seriesName.substring(open + 1, seriesName.length() - 1).split(","))
        {
            final int equals = pair.indexOf('=');
            if (equals > 0)
            {
                labels.put(pair.substring(0, equals), pair.substring(equals + 1));
            }
        }
        return labels;
    }
}
