/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import io.zilla.engine.metrics.MetricUnit;

/** The UCUM units OpenTelemetry names: nanoseconds are exported in seconds. */
final class OtlpUnits
{
    static final double NANOS_PER_SECOND = 1e9;

    private OtlpUnits()
    {
    }

    /** {@code s}, {@code By}, or null for a plain count (no unit). */
    static String of(MetricUnit unit)
    {
        return switch (unit)
        {
            case NANOSECONDS -> "s";
            case BYTES -> "By";
            default -> null;
        };
    }

    /** What a recorded value is divided by to be in {@link #of(MetricUnit)}. */
    static double scale(MetricUnit unit)
    {
        return unit == MetricUnit.NANOSECONDS ? NANOS_PER_SECOND : 1.0;
    }
}
