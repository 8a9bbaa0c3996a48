/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import java.util.concurrent.ThreadFactory;

import io.zilla.engine.config.OtlpOptionsConfig;
import io.zilla.engine.exporter.ExporterContext;
import io.zilla.engine.exporter.ExporterHandler;

/**
 * Pushes the metrics to an OpenTelemetry collector every interval, on a thread of its own: a push reads the workers'
 * counters and histograms files and never touches a worker. A push that fails is not retried; the next one carries
 * the totals, which are cumulative.
 */
final class OtlpExporterHandler implements ExporterHandler
{
    private final ExporterContext context;
    private final OtlpOptionsConfig options;
    private final ZillaOtlpMeterRegistry registry;

    OtlpExporterHandler(ExporterContext context)
    {
        this.context = context;
        this.options = (OtlpOptionsConfig) context.exporter().options();
        this.registry = new ZillaOtlpMeterRegistry(new OtlpRegistryConfig(options, context.namespace().get()), context,
            threads());
    }

    @Override
    public void start()
    {
        registry.start(threads());
    }

    @Override
    public String describe()
    {
        return context.exporter().name() + " " + String.join(", ", options.signals()) + " every " + options.interval()
            + " s to " + options.endpoint().metricsUri();
    }

    /** Stops the pushes, with a last one of the final totals. */
    @Override
    public void close()
    {
        registry.close();
    }

    private ThreadFactory threads()
    {
        return runnable ->
        {
            final Thread thread = new Thread(runnable, "zilla-otlp-" + context.exporter().name());
            thread.setDaemon(true);
            return thread;
        };
    }
}
