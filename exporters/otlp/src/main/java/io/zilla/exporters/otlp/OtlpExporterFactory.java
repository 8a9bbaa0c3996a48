/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.exporter.ExporterContext;
import io.zilla.engine.exporter.ExporterFactorySpi;
import io.zilla.engine.exporter.ExporterHandler;

/** The {@code otlp} exporter type. */
public final class OtlpExporterFactory implements ExporterFactorySpi
{
    @Override
    public String type()
    {
        return TelemetryConfig.OTLP;
    }

    @Override
    public ExporterHandler create(ExporterContext context)
    {
        return new OtlpExporterHandler(context);
    }
}
