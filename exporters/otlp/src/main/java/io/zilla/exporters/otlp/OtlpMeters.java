/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

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

/**
 * The counters and gauges of the selected metrics, one meter per binding and metric (and per value of a labelled
 * counter's label), registered when first seen and removed when a reload drops them. Their values come from the last
 * read of the counters files, summed over workers: one read per push, on the exporter's thread.
 */
final class OtlpMeters
{
    private final MeterRegistry registry;
    private final Supplier<NamespaceConfig> namespace;
    private final Path directory;
    private final Map<String, Metric> declarations;
    private final Map<String, Meter> registered = new HashMap<>();
    private volatile Map<String, Map<String, Long>> values = Map.of();

    OtlpMeters(MeterRegistry registry, Supplier<NamespaceConfig> namespace, Path directory, Map<String, Metric> declarations)
    {
        this.registry = registry;
        this.namespace = namespace;
        this.directory = directory;
        this.declarations = declarations;
    }

    /** Reads the counters again and registers the meters of any binding or metric new since the last push. */
    void refresh()
    {
        try
        {
            values = EngineCounters.read(directory);
        }
        catch (IOException ex)
        {
            // no counters files (yet, or any more): keep the last totals, as a cumulative sum must not fall back to 0
        }
        final NamespaceConfig config = namespace.get();
        final Set<String> selected = new HashSet<>();
        for (ExportedSeries series : ExportedSeries.of(config, declarations))
        {
            // histograms are read at each push by OtlpHistograms
            if (series.metric().kind() != MetricKind.HISTOGRAM)
            {
                selected.add(series.key());
                if (!registered.containsKey(series.key()))
                {
                    registered.put(series.key(), register(config, series));
                }
            }
        }
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

    /** The attributes of each data point of a binding: namespace, binding, then the namespace's telemetry.attributes. */
    static List<Tag> tags(NamespaceConfig config, String binding)
    {
        final List<Tag> tags = new ArrayList<>();
        tags.add(Tag.of("namespace", config.name()));
        if (binding != null)
        {
            tags.add(Tag.of("binding", binding));
        }
        config.telemetry().attributes().forEach((name, attribute) -> tags.add(Tag.of(name, attribute)));
        return tags;
    }

    private Meter register(NamespaceConfig config, ExportedSeries exported)
    {
        final Metric declared = exported.metric();
        final String series = exported.seriesName();
        final String scope = exported.scope();
        final double scale = OtlpUnits.scale(declared.unit());
        final List<Tag> tags = tags(config, exported.binding());
        if (declared.label() != null)
        {
            tags.add(Tag.of(declared.label(), exported.value()));
        }
        if (declared.kind() == MetricKind.GAUGE)
        {
            return Gauge.builder(declared.name(), this, meters -> meters.value(scope, series) / scale)
                .description(declared.description())
                .baseUnit(OtlpUnits.of(declared.unit()))
                .tags(tags)
                .register(registry);
        }
        else
        {
            return FunctionCounter.builder(declared.name(), this, meters -> meters.value(scope, series) / scale)
                .description(declared.description())
                .baseUnit(OtlpUnits.of(declared.unit()))
                .tags(tags)
                .register(registry);
        }
    }

    private double value(String binding, String series)
    {
        final Map<String, Long> counters = values.get(binding);
        final Long value = counters != null ? counters.get(series) : null;
        return value != null ? value : 0;
    }
}
