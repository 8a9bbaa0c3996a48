/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.ClassicHistogramBuckets;
import io.prometheus.metrics.model.snapshots.HistogramSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.prometheus.metrics.model.snapshots.Unit;
import io.zilla.engine.EngineHistograms;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.exporter.ExportedSeries;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricKind;
import io.zilla.engine.metrics.MetricUnit;
import io.zilla.engine.metrics.PrometheusNames;

/**
 * The selected histograms, read from the workers' histograms files at each scrape and given to the Prometheus
 * registry as classic histograms with zilla's own bounds and exact counts. Micrometer's DistributionSummary cannot be
 * fed buckets counted elsewhere, so this is a collector of the Prometheus client that Micrometer's registry wraps.
 * Nanoseconds are exported in seconds ({@code http_duration_seconds}), bytes as bytes ({@code http_request_size_bytes}).
 */
final class PrometheusHistograms implements MultiCollector
{
    private static final double NANOS_PER_SECOND = 1e9;

    private final Supplier<NamespaceConfig> namespace;
    private final Path directory;
    private final Map<String, Metric> declarations;

    PrometheusHistograms(Supplier<NamespaceConfig> namespace, Path directory, Map<String, Metric> declarations)
    {
        this.namespace = namespace;
        this.directory = directory;
        this.declarations = declarations;
    }

    @Override
    public MetricSnapshots collect()
    {
        Map<String, Map<String, EngineHistograms.Values>> values;
        try
        {
            values = EngineHistograms.read(directory);
        }
        catch (IOException ex)
        {
            // the workers have not created their files yet: every selected histogram is still empty
            values = Map.of();
        }
        final NamespaceConfig config = namespace.get();
        final Map<Metric, List<HistogramSnapshot.HistogramDataPointSnapshot>> points = new LinkedHashMap<>();
        for (ExportedSeries series : ExportedSeries.of(config, declarations))
        {
            final Metric metric = series.metric();
            if (metric.kind() == MetricKind.HISTOGRAM)
            {
                final Map<String, EngineHistograms.Values> scope = values.getOrDefault(series.scope(), Map.of());
                series.recorded(scope.keySet(), config).forEach((name, labels) -> points
                    .computeIfAbsent(metric, m -> new ArrayList<>())
                    .add(point(config, series.binding(), metric, labels, scope.get(name))));
            }
        }
        final List<MetricSnapshot> snapshots = new ArrayList<>();
        points.forEach((metric, dataPoints) -> snapshots.add(new HistogramSnapshot(metadata(metric), dataPoints)));
        return new MetricSnapshots(snapshots);
    }

    private static HistogramSnapshot.HistogramDataPointSnapshot point(NamespaceConfig config, String binding, Metric metric,
        Map<String, String> seriesLabels, EngineHistograms.Values recorded)
    {
        final int buckets = metric.buckets().count();
        final double scale = metric.unit() == MetricUnit.NANOSECONDS ? NANOS_PER_SECOND : 1.0;
        final double[] bounds = new double[buckets];
        final long[] counts = new long[buckets];
        for (int i = 0; i < buckets; i++)
        {
            bounds[i] = i < buckets - 1 ? metric.buckets().bound(i) / scale : Double.POSITIVE_INFINITY;
            // a file written by another version with other bounds is read as empty rather than mislabelled
            counts[i] = recorded != null && recorded.counts().length == buckets ? recorded.counts()[i] : 0L;
        }
        final double sum = recorded != null && recorded.counts().length == buckets ? recorded.sum() / scale : 0.0;
        final List<String> names = new ArrayList<>(List.of("namespace", "binding"));
        final List<String> labels = new ArrayList<>(List.of(config.name(), binding));
        config.telemetry().attributes().forEach((name, value) ->
        {
            names.add(name.replace('.', '_'));
            labels.add(value);
        });
        // the metric's own label or the binding's attributes, after the namespace's
        seriesLabels.forEach((name, value) ->
        {
            names.add(name.replace('.', '_'));
            labels.add(value);
        });
        return HistogramSnapshot.HistogramDataPointSnapshot.builder()
            .classicHistogramBuckets(ClassicHistogramBuckets.of(bounds, counts))
            .sum(sum)
            .labels(Labels.of(names, labels))
            .build();
    }

    private static MetricMetadata metadata(Metric metric)
    {
        final String name = PrometheusNames.base(metric);
        return switch (metric.unit())
        {
            case NANOSECONDS -> new MetricMetadata(name, metric.description(), Unit.SECONDS);
            case BYTES -> new MetricMetadata(name, metric.description(), Unit.BYTES);
            default -> new MetricMetadata(name, metric.description());
        };
    }
}
