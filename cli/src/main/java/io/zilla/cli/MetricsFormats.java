/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.TreeMap;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.EngineHistograms;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;
import io.zilla.engine.exporter.ExportedSeries;
import io.zilla.engine.metrics.EngineMetrics;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricKind;
import io.zilla.engine.metrics.PrometheusNames;

/**
 * {@code zilla metrics --format prometheus|json}. Prometheus' text format as the exporter names the series
 * ({@link PrometheusNames}), with a {@code binding} label (none on the engine's own) and a labelled counter's label,
 * for the declared metrics only: the always-on counters ({@code streams.opened}...) have no Prometheus shape. JSON: one
 * object per series, every counter among them.
 */
final class MetricsFormats
{
    private MetricsFormats()
    {
    }

    /** Prints the declared metrics in Prometheus' text format 0.0.4, one family after another. */
    static void prometheus(PrintWriter out, Map<String, Map<String, Long>> counters,
        Map<String, Map<String, EngineHistograms.Values>> histograms)
    {
        final Map<String, Metric> declared = declarations();
        // a family's series together, as the format wants: by metric, then by binding
        final Map<Metric, List<String>> families = new TreeMap<>((a, b) -> a.name().compareTo(b.name()));
        counters.forEach((scope, values) -> values.forEach((series, value) ->
        {
            final Metric metric = declared.get(ExportedSeries.metricOf(series));
            if (metric != null && metric.kind() != MetricKind.HISTOGRAM)
            {
                families.computeIfAbsent(metric, m -> new ArrayList<>()).add(PrometheusNames.series(metric)
                    + labels(scope, ExportedSeries.labels(series), null) + " "
                    + number(value * PrometheusNames.scale(metric)));
            }
        }));
        histograms.forEach((scope, values) -> values.forEach((name, histogram) ->
        {
            final Metric metric = declared.get(ExportedSeries.metricOf(name));
            final Map<String, String> labels = ExportedSeries.labels(name);
            if (metric != null && metric.kind() == MetricKind.HISTOGRAM)
            {
                final String base = PrometheusNames.base(metric);
                final double scale = PrometheusNames.scale(metric);
                final List<String> lines = families.computeIfAbsent(metric, m -> new ArrayList<>());
                long cumulative = 0;
                for (int i = 0; i < histogram.counts().length; i++)
                {
                    cumulative += histogram.counts()[i];
                    final String le = i < histogram.bounds().length ? number(histogram.bounds()[i] * scale) : "+Inf";
                    lines.add(base + "_bucket" + labels(scope, labels, le) + " " + cumulative);
                }
                lines.add(base + "_sum" + labels(scope, labels, null) + " " + number(histogram.sum() * scale));
                lines.add(base + "_count" + labels(scope, labels, null) + " " + cumulative);
            }
        }));
        families.forEach((metric, lines) ->
        {
            final String name = metric.kind() == MetricKind.HISTOGRAM
                ? PrometheusNames.base(metric)
                : PrometheusNames.series(metric);
            out.println("# HELP " + name + " " + metric.description());
            out.println("# TYPE " + name + " " + metric.kind().name().toLowerCase(Locale.ROOT));
            lines.forEach(out::println);
        });
    }

    /** Prints a JSON array: binding, metric, kind, unit and value per counter or gauge; count, sum, buckets per histogram. */
    static void json(PrintWriter out, Map<String, Map<String, Long>> counters,
        Map<String, Map<String, EngineHistograms.Values>> histograms)
    {
        final Map<String, Metric> declared = declarations();
        final List<Map<String, Object>> series = new ArrayList<>();
        counters.forEach((scope, values) -> values.forEach((name, value) ->
        {
            final Metric metric = declared.get(ExportedSeries.metricOf(name));
            final Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("binding", scope);
            entry.put("metric", name);
            entry.put("kind", metric != null ? metric.kind().name().toLowerCase(Locale.ROOT) : "counter");
            entry.put("unit", metric != null ? metric.unit().name().toLowerCase(Locale.ROOT) : "count");
            entry.put("value", value);
            series.add(entry);
        }));
        histograms.forEach((scope, values) -> values.forEach((name, histogram) ->
        {
            final Metric metric = declared.get(ExportedSeries.metricOf(name));
            final Map<String, Object> entry = new LinkedHashMap<>();
            entry.put("binding", scope);
            entry.put("metric", name);
            entry.put("kind", "histogram");
            entry.put("unit", metric != null ? metric.unit().name().toLowerCase(Locale.ROOT) : "count");
            entry.put("count", histogram.count());
            entry.put("sum", histogram.sum());
            final List<Map<String, Object>> buckets = new ArrayList<>();
            for (int i = 0; i < histogram.counts().length; i++)
            {
                final Map<String, Object> bucket = new LinkedHashMap<>();
                bucket.put("le", i < histogram.bounds().length ? (Object) histogram.bounds()[i] : "+Inf");
                bucket.put("count", histogram.counts()[i]);
                buckets.add(bucket);
            }
            entry.put("buckets", buckets);
            series.add(entry);
        }));
        try
        {
            out.println(new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(series));
        }
        catch (JsonProcessingException ex)
        {
            throw new IllegalStateException(ex);
        }
    }

    /** {@code series}: a labelled counter's one label, or a histogram's labels by the binding's attributes, in order. */
    private static String labels(String scope, Map<String, String> series, String le)
    {
        final List<String> pairs = new ArrayList<>();
        if (!EngineMetrics.ENGINE_SCOPE.equals(scope))
        {
            pairs.add("binding=\"" + scope + "\"");
        }
        series.forEach((name, value) -> pairs.add(name.replace('.', '_') + "=\"" + value + "\""));
        if (le != null)
        {
            pairs.add("le=\"" + le + "\"");
        }
        return pairs.isEmpty() ? "" : "{" + String.join(",", pairs) + "}";
    }

    private static String number(double value)
    {
        return value == Math.rint(value) && Math.abs(value) < 1e15 ? Long.toString((long) value) : Double.toString(value);
    }

    /** The metrics of the engine and of every binding type in the distribution, by name. */
    static Map<String, Metric> declarations()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final List<Binding> types = new ArrayList<>();
        ServiceLoader.load(BindingFactorySpi.class).forEach(factory -> types.add(factory.create(configuration)));
        return EngineMetrics.declared(types);
    }
}
