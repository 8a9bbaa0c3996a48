/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

/**
 * The Prometheus name of a metric, as zilla's prometheus exporter serves it and Micrometer names it: dots become
 * underscores, then the unit ({@code _bytes}, {@code _seconds} for nanoseconds) unless the name ends with it already,
 * then {@code _total} for a counter. {@code zilla metrics --format prometheus} and the exporter agree through this.
 */
public final class PrometheusNames
{
    private PrometheusNames()
    {
    }

    /** The base name: {@code http_duration_seconds}, {@code stream_data_sent_bytes}, {@code kafka_fetch_bytes}. */
    public static String base(Metric metric)
    {
        final String base = metric.name().replace('.', '_');
        final String unit = switch (metric.unit())
        {
            case BYTES -> "_bytes";
            case NANOSECONDS -> "_seconds";
            default -> "";
        };
        return base.endsWith(unit) ? base : base + unit;
    }

    /** The name of its series: {@code _total} after a counter's base name; a histogram's are base_bucket, _sum, _count. */
    public static String series(Metric metric)
    {
        return metric.kind() == MetricKind.COUNTER ? base(metric) + "_total" : base(metric);
    }

    /** What the metric's recorded values are multiplied by when exported: nanoseconds become seconds. */
    public static double scale(Metric metric)
    {
        return metric.unit() == MetricUnit.NANOSECONDS ? 1e-9 : 1.0;
    }
}
