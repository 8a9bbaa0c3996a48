/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

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
 */
public record Metric(String name, MetricKind kind, MetricUnit unit, String description, Buckets buckets)
{
    public Metric
    {
        Objects.requireNonNull(name);
        Objects.requireNonNull(kind);
        Objects.requireNonNull(unit);
        if ((kind == MetricKind.HISTOGRAM) != (buckets != null))
        {
            throw new IllegalArgumentException(name + ": a histogram has buckets, a counter or a gauge has none");
        }
    }

    public static Metric counter(String name, MetricUnit unit, String description)
    {
        return new Metric(name, MetricKind.COUNTER, unit, description, null);
    }

    public static Metric gauge(String name, String description)
    {
        return new Metric(name, MetricKind.GAUGE, MetricUnit.COUNT, description, null);
    }

    public static Metric histogram(String name, MetricUnit unit, String description, Buckets buckets)
    {
        return new Metric(name, MetricKind.HISTOGRAM, unit, description, buckets);
    }
}
