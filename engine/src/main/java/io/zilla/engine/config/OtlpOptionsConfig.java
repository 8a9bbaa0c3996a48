/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.List;
import java.util.Map;

/**
 * The options of an {@code otlp} exporter: what it pushes, how often, and where (OTLP/HTTP with protobuf bodies).
 *
 * @param interval seconds between two pushes, 30 unless given
 * @param signals  what it pushes: only {@code metrics} is built
 * @param endpoint where it pushes
 */
public record OtlpOptionsConfig(int interval, List<String> signals, Endpoint endpoint) implements OptionsConfig
{
    public static final int DEFAULT_INTERVAL = 30;
    public static final String METRICS = "metrics";
    public static final String LOGS = "logs";
    public static final String HTTP = "http";
    public static final String DEFAULT_METRICS_PATH = "/v1/metrics";

    public OtlpOptionsConfig
    {
        signals = List.copyOf(signals);
    }

    /**
     * @param protocol  only {@code http}: OTLP/HTTP, protobuf bodies
     * @param location  the collector's base URI, such as {@code http://otel-collector:4318}
     * @param overrides the path (or the whole http(s) URI) of each signal, {@code /v1/metrics} unless given
     * @param headers   sent with every push, such as {@code authorization}
     */
    public record Endpoint(String protocol, String location, Overrides overrides, Map<String, String> headers)
    {
        public Endpoint
        {
            headers = Map.copyOf(headers);
        }

        /** Where the metrics are pushed: the override if it is a whole URI, otherwise the location and that path. */
        public String metricsUri()
        {
            final String metrics = overrides.metrics();
            if (!metrics.startsWith("/"))
            {
                return metrics;
            }
            final String base = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
            return base + metrics;
        }
    }

    /** @param metrics the path of the metrics signal, or a whole http(s) URI */
    public record Overrides(String metrics)
    {
    }
}
