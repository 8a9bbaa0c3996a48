/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

/** What a metric's value means to an exporter. */
public enum MetricKind
{
    /** Only goes up: Prometheus {@code _total}. */
    COUNTER,
    /** Goes up and down: the value now. */
    GAUGE,
    /** Observations counted into fixed buckets, with their sum: Prometheus {@code _bucket}, {@code _sum}, {@code _count}. */
    HISTOGRAM
}
