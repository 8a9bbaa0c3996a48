/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.exporter;

/**
 * A metrics exporter type, found with {@link java.util.ServiceLoader}: each exporter module lists its implementation
 * in {@code META-INF/services/io.zilla.engine.exporter.ExporterFactorySpi}. The engine checks and binds the type's
 * options (io.zilla.engine.config.TelemetryConfig names the types it knows).
 */
public interface ExporterFactorySpi
{
    /** The {@code type} that zilla.yaml names under {@code telemetry.exporters}, such as {@code prometheus}. */
    String type();

    /** Called once per exporter of this type when the engine starts; the handler is started next. */
    ExporterHandler create(ExporterContext context);
}
