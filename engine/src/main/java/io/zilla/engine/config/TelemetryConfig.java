/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.List;

/**
 * The {@code telemetry} section.
 *
 * @param exporters the exporters, such as {@code stdout} for events
 */
public record TelemetryConfig(List<ComponentConfig> exporters)
{
    public static final TelemetryConfig EMPTY = new TelemetryConfig(List.of());

    public TelemetryConfig
    {
        exporters = List.copyOf(exporters);
    }
}
