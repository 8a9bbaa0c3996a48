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
 * @param signals  what it pushes, {@code metrics} and {@code logs} (the engine's events) unless given, in the order given
 * @param endpoint where it pushes
 */
public record OtlpOptionsConfig(int interval, List<String> signals, Endpoint endpoint) implements OptionsConfig
{
    public static final int DEFAULT_INTERVAL = 30;
    public static final String METRICS = "metrics";
    public static final String LOGS = "logs";
    /** Every signal built, as Zilla's default is every signal it supports. */
    public static final List<String> DEFAULT_SIGNALS = List.of(METRICS, LOGS);
    public static final String HTTP = "http";
    public static final String DEFAULT_METRICS_PATH = "/v1/metrics";
    public static final String DEFAULT_LOGS_PATH = "/v1/logs";

    public OtlpOptionsConfig
    {
        signals = List.copyOf(signals);
    }

    /** Whether it pushes that signal. */
    public boolean pushes(String signal)
    {
        return signals.contains(signal);
    }

    /**
     * @param protocol  only {@code http}: OTLP/HTTP, protobuf bodies
     * @param location  the collector's base URI, such as {@code http://otel-collector:4318}
     * @param overrides the path (or the whole http(s) URI) of each signal, {@code /v1/metrics} and {@code /v1/logs}
     *                  unless given
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
            return resolve(overrides.metrics());
        }

        /** Where the logs are pushed: the override if it is a whole URI, otherwise the location and that path. */
        public String logsUri()
        {
            return resolve(overrides.logs());
        }

        /** Where that signal ({@code metrics} or {@code logs}) is pushed. */
        public String uri(String signal)
        {
            return LOGS.equals(signal) ? logsUri() : metricsUri();
        }

        private String resolve(String override)
        {
            if (!override.startsWith("/"))
            {
                return override;
            }
            final String base = location.endsWith("/") ? location.substring(0, location.length() - 1) : location;
            return base + override;
        }
    }

    /**
     * @param metrics the path of the metrics signal, or a whole http(s) URI
     * @param logs    the path of the logs signal, or a whole http(s) URI
     */
    public record Overrides(String metrics, String logs)
    {
    }
}
