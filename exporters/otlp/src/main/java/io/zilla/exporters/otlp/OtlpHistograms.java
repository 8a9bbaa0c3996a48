/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Tag;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.Histogram;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.zilla.engine.EngineHistograms;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.exporter.ExportedSeries;
import io.zilla.engine.metrics.MetricKind;

/**
 * The selected histograms, read from the workers' histograms files at each push into OTLP explicit-bucket histograms
 * with zilla's own bounds and exact counts, cumulative since the exporter started. Micrometer's OTLP registry cannot
 * be fed buckets counted elsewhere (its converter casts every histogram to its own package-private meter type), so
 * these data points are built here with the OTLP protobuf classes.
 */
final class OtlpHistograms
{
    private final Supplier<NamespaceConfig> namespace;
    private final Path directory;
    private final Map<String, io.zilla.engine.metrics.Metric> declarations;
    private final long startNanos;
    private Map<String, Map<String, EngineHistograms.Values>> values = Map.of();

    OtlpHistograms(Supplier<NamespaceConfig> namespace, Path directory,
        Map<String, io.zilla.engine.metrics.Metric> declarations, long startNanos)
    {
        this.namespace = namespace;
        this.directory = directory;
        this.declarations = declarations;
        this.startNanos = startNanos;
    }

    /** One metric per selected histogram, with a data point per binding that records it. */
    List<Metric> collect(long nowNanos)
    {
        try
        {
            values = EngineHistograms.read(directory);
        }
        catch (IOException ex)
        {
            // no histograms files (yet, or any more): keep the last counts, as cumulative counts must not fall back to 0
        }
        final NamespaceConfig config = namespace.get();
        final Map<io.zilla.engine.metrics.Metric, Histogram.Builder> histograms = new LinkedHashMap<>();
        for (ExportedSeries series : ExportedSeries.of(config, declarations))
        {
            final io.zilla.engine.metrics.Metric metric = series.metric();
            if (metric.kind() == MetricKind.HISTOGRAM)
            {
                final Map<String, EngineHistograms.Values> scope = values.getOrDefault(series.scope(), Map.of());
                series.recorded(scope.keySet(), config).forEach((name, labels) -> histograms
                    .computeIfAbsent(metric, m -> Histogram.newBuilder()
                        .setAggregationTemporality(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE))
                    .addDataPoints(point(config, series.binding(), metric, labels, scope.get(name), nowNanos)));
            }
        }
        final List<Metric> metrics = new ArrayList<>();
        histograms.forEach((metric, histogram) ->
        {
            final Metric.Builder builder = Metric.newBuilder()
                .setName(metric.name())
                .setDescription(metric.description() != null ? metric.description() : "")
                .setHistogram(histogram);
            final String unit = OtlpUnits.of(metric.unit());
            if (unit != null)
            {
                builder.setUnit(unit);
            }
            metrics.add(builder.build());
        });
        return metrics;
    }

    private HistogramDataPoint point(NamespaceConfig config, String binding, io.zilla.engine.metrics.Metric metric,
        Map<String, String> labels, EngineHistograms.Values recorded, long nowNanos)
    {
        final int buckets = metric.buckets().count();
        final double scale = OtlpUnits.scale(metric.unit());
        // a file written by another version with other bounds is read as empty rather than mislabelled
        final boolean valid = recorded != null && recorded.counts().length == buckets;
        final HistogramDataPoint.Builder point = HistogramDataPoint.newBuilder()
            .setStartTimeUnixNano(startNanos)
            .setTimeUnixNano(nowNanos);
        long count = 0;
        for (int i = 0; i < buckets; i++)
        {
            if (i < buckets - 1)
            {
                point.addExplicitBounds(metric.buckets().bound(i) / scale);
            }
            final long bucket = valid ? recorded.counts()[i] : 0L;
            point.addBucketCounts(bucket);
            count += bucket;
        }
        point.setCount(count).setSum(valid ? recorded.sum() / scale : 0.0);
        for (Tag tag : OtlpMeters.tags(config, binding))
        {
            point.addAttributes(KeyValue.newBuilder()
                .setKey(tag.getKey())
                .setValue(AnyValue.newBuilder().setStringValue(tag.getValue())));
        }
        // the metric's own label or the binding's attributes, as their names are written
        labels.forEach((key, value) -> point.addAttributes(KeyValue.newBuilder()
            .setKey(key)
            .setValue(AnyValue.newBuilder().setStringValue(value))));
        return point.build();
    }
}
