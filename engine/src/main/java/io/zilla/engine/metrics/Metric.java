/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import java.util.List;
import java.util.Objects;

/**
 * A metric zilla can record, as zilla.yaml's {@code telemetry.metrics} names it ({@code http.duration}). The engine
 * declares the {@code stream.*} metrics; a binding type declares its own ({@link io.zilla.engine.binding.Binding#metrics()}),
 * and config checks and exporters read the same declarations.
 *
 * @param name        the zilla.yaml name: lower case words joined by dots
 * @param kind        counter, gauge or histogram
 * @param unit        what the values count
 * @param description one line for exporters ({@code # HELP})
 * @param buckets     the bucket bounds of a histogram; null for a counter or a gauge
 * @param label       the name of the one label a counter or a histogram may have, whose values the code fixes
 *                    ({@code reason}, {@code api}); null for none. Fixed values keep the series a metric can have
 *                    bounded.
 * @param values      the values of that label, each its own series; empty without a label
 */
public record Metric(String name, MetricKind kind, MetricUnit unit, String description, Buckets buckets, String label,
    List<String> values)
{
    public Metric
    {
        Objects.requireNonNull(name);
        Objects.requireNonNull(kind);
        Objects.requireNonNull(unit);
        values = List.copyOf(values);
        if ((kind == MetricKind.HISTOGRAM) != (buckets != null))
        {
            throw new IllegalArgumentException(name + ": a histogram has buckets, a counter or a gauge has none");
        }
        if ((label != null) != !values.isEmpty() || label != null && kind == MetricKind.GAUGE)
        {
            throw new IllegalArgumentException(name + ": a gauge has no label, and a label has values");
        }
    }

    public static Metric counter(String name, MetricUnit unit, String description)
    {
        return new Metric(name, MetricKind.COUNTER, unit, description, null, null, List.of());
    }

    /** A counter with one label of fixed values ({@code tls.handshake.failures} by {@code reason}). */
    public static Metric counter(String name, MetricUnit unit, String description, String label, String... values)
    {
        return new Metric(name, MetricKind.COUNTER, unit, description, null, label, List.of(values));
    }

    public static Metric gauge(String name, String description)
    {
        return gauge(name, MetricUnit.COUNT, description);
    }

    public static Metric gauge(String name, MetricUnit unit, String description)
    {
        return new Metric(name, MetricKind.GAUGE, unit, description, null, null, List.of());
    }

    public static Metric histogram(String name, MetricUnit unit, String description, Buckets buckets)
    {
        return new Metric(name, MetricKind.HISTOGRAM, unit, description, buckets, null, List.of());
    }

    /** A histogram with one label of fixed values ({@code kafka.request.duration} by {@code api}). */
    public static Metric histogram(String name, MetricUnit unit, String description, Buckets buckets, String label,
        String... values)
    {
        return new Metric(name, MetricKind.HISTOGRAM, unit, description, buckets, label, List.of(values));
    }

    /**
     * The name a series of this metric has in the workers' counters files: the metric's name, and for a labelled one
     * {@code {label=value}} after it ({@code tls.handshake.failures{reason=certificate}}).
     */
    public String seriesName(String value)
    {
        return label != null ? name + "{" + label + "=" + value + "}" : name;
    }
}
