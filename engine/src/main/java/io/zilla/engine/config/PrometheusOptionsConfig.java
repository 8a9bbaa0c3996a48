/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.List;

/**
 * The options of a {@code prometheus} exporter: where it serves the metrics.
 *
 * @param endpoints one or more, each on its own port
 */
public record PrometheusOptionsConfig(List<Endpoint> endpoints) implements OptionsConfig
{
    public static final String DEFAULT_PATH = "/metrics";

    public PrometheusOptionsConfig
    {
        endpoints = List.copyOf(endpoints);
    }

    /**
     * @param scheme only {@code http}
     * @param port   the TCP port it listens on, on every interface
     * @param path   the path that answers a scrape, {@code /metrics} unless given
     */
    public record Endpoint(String scheme, int port, String path)
    {
    }
}
