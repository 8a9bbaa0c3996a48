/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.exporter;

import java.nio.file.Path;
import java.util.Map;
import java.util.function.Supplier;

import io.zilla.engine.config.ComponentConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.metrics.Metric;

/**
 * What an exporter is given.
 *
 * @param exporter  its name, type and bound options in zilla.yaml
 * @param namespace the namespace now running (a reload changes it): its bindings and their selected metrics
 * @param directory the engine directory, whose {@code counters<N>} and {@code histograms<N>} files hold each worker's
 *                  metrics
 * @param metrics   the declaration of every metric zilla can record, by name: its kind, unit and buckets
 */
public record ExporterContext(ComponentConfig exporter, Supplier<NamespaceConfig> namespace, Path directory,
    Map<String, Metric> metrics)
{
    public ExporterContext
    {
        metrics = Map.copyOf(metrics);
    }
}
