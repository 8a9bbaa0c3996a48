/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.ipc.http.HttpUrlConnectionSender;
import io.micrometer.registry.otlp.OtlpHttpMetricsSender;
import io.micrometer.registry.otlp.OtlpMeterRegistry;
import io.micrometer.registry.otlp.OtlpMetricsSender;
import io.opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.opentelemetry.proto.resource.v1.Resource;
import io.zilla.engine.exporter.ExporterContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Micrometer's OTLP registry, publishing on its own thread every interval: each push first reads the counters files
 * and registers the meters new since the last (OtlpMeters), lets Micrometer send the counters and gauges, then sends
 * the histograms (OtlpHistograms) in a second request to the same URI with the same headers and resource.
 */
final class ZillaOtlpMeterRegistry extends OtlpMeterRegistry
{
    private static final Logger LOGGER = LoggerFactory.getLogger(ZillaOtlpMeterRegistry.class);

    private final String exporter;
    private final OtlpRegistryConfig config;
    private final OtlpMeters meters;
    private final OtlpHistograms histograms;
    private final OtlpMetricsSender sender;
    private final Resource resource;
    private volatile boolean constructed;
    private boolean failing;

    ZillaOtlpMeterRegistry(OtlpRegistryConfig config, ExporterContext context, ThreadFactory threads)
    {
        super(config, Clock.SYSTEM, threads);
        this.exporter = context.exporter().name();
        this.config = config;
        this.meters = new OtlpMeters(this, context.namespace(), context.directory(), context.metrics());
        this.histograms = new OtlpHistograms(context.namespace(), context.directory(), context.metrics(),
            TimeUnit.MILLISECONDS.toNanos(Clock.SYSTEM.wallTime()));
        this.sender = new OtlpHttpMetricsSender(new HttpUrlConnectionSender(config.connectTimeout(), config.readTimeout()));
        this.resource = resource(config.resourceAttributes());
        this.constructed = true;
    }

    /** Micrometer's constructor starts publishing; here it starts only when the exporter does. */
    @Override
    public void start(ThreadFactory threads)
    {
        if (constructed)
        {
            super.start(threads);
        }
    }

    @Override
    protected void publish()
    {
        if (!constructed)
        {
            return;
        }
        meters.refresh();
        super.publish();
        final List<Metric> metrics = histograms.collect(TimeUnit.MILLISECONDS.toNanos(clock.wallTime()));
        if (!metrics.isEmpty())
        {
            send(ExportMetricsServiceRequest.newBuilder()
                .addResourceMetrics(ResourceMetrics.newBuilder()
                    .setResource(resource)
                    .addScopeMetrics(ScopeMetrics.newBuilder().addAllMetrics(metrics)))
                .build());
        }
    }

    private void send(ExportMetricsServiceRequest request)
    {
        try
        {
            sender.send(OtlpMetricsSender.Request.builder(request.toByteArray())
                .address(config.url())
                .headers(config.headers())
                .compressionMode(config.compressionMode())
                .build());
            failing = false;
        }
        catch (Exception ex)
        {
            // cumulative values: the next push carries what this one lost; say so once, not every interval
            if (!failing)
            {
                LOGGER.warn("{}: cannot push the histograms to {}: {} (retrying every interval)", exporter, config.url(),
                    ex.getMessage());
            }
            failing = true;
        }
    }

    /**
     * The resource Micrometer sends with the counters and gauges, sent with the histograms and the logs too, so that a
     * collector sees one resource.
     */
    static Resource resource(Map<String, String> attributes)
    {
        final Resource.Builder resource = Resource.newBuilder()
            .addAttributes(attribute("telemetry.sdk.name", "io.micrometer"))
            .addAttributes(attribute("telemetry.sdk.language", "java"));
        final String version = MeterRegistry.class.getPackage().getImplementationVersion();
        if (version != null)
        {
            resource.addAttributes(attribute("telemetry.sdk.version", version));
        }
        attributes.forEach((key, value) -> resource.addAttributes(attribute(key, value)));
        return resource.build();
    }

    private static KeyValue attribute(String key, String value)
    {
        return KeyValue.newBuilder().setKey(key).setValue(AnyValue.newBuilder().setStringValue(value)).build();
    }
}
