/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

import io.micrometer.registry.otlp.AggregationTemporality;
import io.micrometer.registry.otlp.CompressionMode;
import io.micrometer.registry.otlp.OtlpConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.OtlpOptionsConfig;

/**
 * Micrometer's OTLP settings, all from zilla.yaml: none is read from the environment or from system properties
 * ({@code OTEL_EXPORTER_OTLP_*}), so that the file says everything the exporter does.
 */
final class OtlpRegistryConfig implements OtlpConfig
{
    /** More meters than a namespace has: the registry's meters go in one request, not in batches. */
    private static final int BATCH_SIZE = 1 << 20;

    private final String uri;
    private final Duration step;
    private final Map<String, String> headers;
    private final Map<String, String> resourceAttributes;

    OtlpRegistryConfig(OtlpOptionsConfig options, NamespaceConfig namespace)
    {
        this.uri = options.endpoint().metricsUri();
        this.step = Duration.ofSeconds(options.interval());
        this.headers = options.endpoint().headers();
        this.resourceAttributes = resourceAttributes(namespace);
    }

    /** {@code service.name} is the namespace's name, unless its telemetry.attributes name another. */
    static Map<String, String> resourceAttributes(NamespaceConfig namespace)
    {
        final Map<String, String> attributes = new LinkedHashMap<>();
        attributes.put("service.name", namespace.name());
        attributes.putAll(namespace.telemetry().attributes());
        return Map.copyOf(attributes);
    }

    @Override
    public String get(String key)
    {
        // every other setting keeps Micrometer's default
        return null;
    }

    @Override
    public String url()
    {
        return uri;
    }

    @Override
    public Duration step()
    {
        return step;
    }

    @Override
    public Map<String, String> headers()
    {
        return headers;
    }

    @Override
    public Map<String, String> resourceAttributes()
    {
        return resourceAttributes;
    }

    @Override
    public AggregationTemporality aggregationTemporality()
    {
        // the workers' counters and histograms only grow: each push sends the totals since the start
        return AggregationTemporality.CUMULATIVE;
    }

    @Override
    public CompressionMode compressionMode()
    {
        return CompressionMode.NONE;
    }

    @Override
    public int batchSize()
    {
        return BATCH_SIZE;
    }

    @Override
    public boolean publishMaxGaugeForHistograms()
    {
        return false;
    }
}
