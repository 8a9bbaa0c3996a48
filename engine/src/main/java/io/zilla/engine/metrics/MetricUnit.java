/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

/** The unit of a metric's recorded values. */
public enum MetricUnit
{
    /** A plain count. */
    COUNT,
    /** Bytes: Prometheus {@code _bytes}. */
    BYTES,
    /** Nanoseconds, exported in seconds: Prometheus {@code _seconds}. */
    NANOSECONDS
}
