/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.List;
import java.util.Set;

/**
 * The {@code telemetry} section.
 *
 * @param exporters the exporters, such as {@code stdout} for events
 */
public record TelemetryConfig(List<ComponentConfig> exporters)
{
    public static final TelemetryConfig EMPTY = new TelemetryConfig(List.of());

    /** The exporter type that prints each event on stdout, one line each; it has no options. */
    public static final String STDOUT = "stdout";

    /** The exporter types the engine has: only these may be configured (no metrics exporter yet). */
    public static final Set<String> EXPORTER_TYPES = Set.of(STDOUT);

    public TelemetryConfig
    {
        exporters = List.copyOf(exporters);
    }
}
