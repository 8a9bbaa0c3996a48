/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.stream.Collectors;

import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.OtlpOptionsConfig;
import io.zilla.engine.exporter.ExporterContext;
import io.zilla.engine.exporter.ExporterHandler;
import io.zilla.engine.internal.event.EngineEvent;

/**
 * Pushes the metrics, the engine's events (logs), or both, to an OpenTelemetry collector every interval, each signal
 * on a thread of its own: a push reads the workers' counters and histograms files, or the events queued, and never
 * touches a worker. A metrics push that fails is not retried; the next one carries the totals, which are cumulative.
 * A logs push that fails keeps its records for the next (OtlpLogs).
 */
final class OtlpExporterHandler implements ExporterHandler
{
    private final ExporterContext context;
    private final OtlpOptionsConfig options;
    private final ZillaOtlpMeterRegistry registry;
    private final OtlpLogs logs;

    OtlpExporterHandler(ExporterContext context)
    {
        this.context = context;
        this.options = (OtlpOptionsConfig) context.exporter().options();
        final NamespaceConfig namespace = context.namespace().get();
        final OtlpRegistryConfig config = new OtlpRegistryConfig(options, namespace);
        // a registry that is not started still publishes when it closes: none unless the metrics are pushed
        this.registry = options.pushes(OtlpOptionsConfig.METRICS)
            ? new ZillaOtlpMeterRegistry(config, context, threads(""))
            : null;
        this.logs = options.pushes(OtlpOptionsConfig.LOGS)
            ? new OtlpLogs(context.exporter().name(), options.endpoint().logsUri(), options.endpoint().headers(),
                ZillaOtlpMeterRegistry.resource(config.resourceAttributes()), context.namespace(), options.interval())
            : null;
    }

    @Override
    public void start()
    {
        if (registry != null)
        {
            registry.start(threads(""));
        }
        if (logs != null)
        {
            logs.start(threads("-logs"));
        }
    }

    /** Such as {@code otlp_exporter metrics, logs every 30 s to http://c:4318/v1/metrics, http://c:4318/v1/logs}. */
    @Override
    public String describe()
    {
        final List<String> signals = options.signals();
        return context.exporter().name() + " " + String.join(", ", signals) + " every " + options.interval() + " s to "
            + signals.stream().map(options.endpoint()::uri).collect(Collectors.joining(", "));
    }

    @Override
    public void onEvent(EngineEvent event)
    {
        if (logs != null)
        {
            logs.onEvent(event);
        }
    }

    /** Stops the pushes, with a last one of the final totals and of the events queued. */
    @Override
    public void close()
    {
        if (registry != null)
        {
            registry.close();
        }
        if (logs != null)
        {
            logs.close();
        }
    }

    private ThreadFactory threads(String suffix)
    {
        return runnable ->
        {
            final Thread thread = new Thread(runnable, "zilla-otlp-" + context.exporter().name() + suffix);
            thread.setDaemon(true);
            return thread;
        };
    }
}
