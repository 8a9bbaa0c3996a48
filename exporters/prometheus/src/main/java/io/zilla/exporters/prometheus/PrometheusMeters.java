/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.exporter.ExportedSeries;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricKind;
import io.zilla.engine.metrics.PrometheusNames;

/**
 * The meters of the selected metrics, one per binding and metric, registered when first seen. Their values come
 * from the last read of the counters files, summed over workers: one read per scrape, on the exporter's thread.
 */
final class PrometheusMeters
{
    private final MeterRegistry registry;
    private final Supplier<NamespaceConfig> namespace;
    private final Path directory;
    private final Map<String, Metric> declarations;
    private final Map<String, Meter> registered = new HashMap<>();
    private volatile Map<String, Map<String, Long>> values = Map.of();

    PrometheusMeters(MeterRegistry registry, Supplier<NamespaceConfig> namespace, Path directory,
        Map<String, Metric> declarations)
    {
        this.registry = registry;
        this.namespace = namespace;
        this.directory = directory;
        this.declarations = declarations;
    }

    /** Reads the counters again and registers the meters of any binding or metric new since the last scrape. */
    void refresh()
    {
        try
        {
            values = EngineCounters.read(directory);
        }
        catch (IOException ex)
        {
            // the workers have not created their counters files yet: every selected metric is still 0
            values = Map.of();
        }
        final NamespaceConfig config = namespace.get();
        final Set<String> selected = new HashSet<>();
        for (ExportedSeries series : ExportedSeries.of(config, declarations))
        {
            // histograms are collected at each scrape by PrometheusHistograms
            if (series.metric().kind() != MetricKind.HISTOGRAM)
            {
                selected.add(series.key());
                if (!registered.containsKey(series.key()))
                {
                    registered.put(series.key(), register(config, series));
                }
            }
        }
        // a reload removed the binding, or its telemetry no longer selects the metric: its series go
        registered.entrySet().removeIf(entry ->
        {
            final boolean stale = !selected.contains(entry.getKey());
            if (stale)
            {
                registry.remove(entry.getValue());
            }
            return stale;
        });
    }

    private Meter register(NamespaceConfig config, ExportedSeries exported)
    {
        final Metric declared = exported.metric();
        final String binding = exported.binding();
        final String metric = declared.name();
        final String series = exported.seriesName();
        final String scope = exported.scope();
        final List<Tag> tags = new ArrayList<>();
        tags.add(Tag.of("namespace", config.name()));
        if (binding != null)
        {
            tags.add(Tag.of("binding", binding));
        }
        // nanoseconds are exported in seconds, as the histograms are
        final double scale = PrometheusNames.scale(declared);
        final String unit = switch (declared.unit())
        {
            case BYTES -> "bytes";
            case NANOSECONDS -> "seconds";
            default -> null;
        };
        config.telemetry().attributes().forEach((name, attribute) -> tags.add(Tag.of(name.replace('.', '_'), attribute)));
        if (declared.label() != null)
        {
            tags.add(Tag.of(declared.label(), exported.value()));
        }
        if (declared.kind() == MetricKind.GAUGE)
        {
            return Gauge.builder(metric, this, meters -> meters.value(scope, series) * scale)
                .description(declared.description())
                .baseUnit(unit)
                .tags(tags)
                .register(registry);
        }
        else
        {
            // Micrometer's Prometheus naming adds _bytes or _seconds for the base unit and _total for a counter
            return FunctionCounter.builder(metric, this, meters -> meters.value(scope, series) * scale)
                .description(declared.description())
                .baseUnit(unit)
                .tags(tags)
                .register(registry);
        }
    }

    private double value(String binding, String metric)
    {
        final Map<String, Long> counters = values.get(binding);
        final Long value = counters != null ? counters.get(metric) : null;
        return value != null ? value : 0;
    }
}
