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
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.metrics.EngineMetrics;
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
        for (BindingConfig binding : config.bindings())
        {
            for (String metric : binding.metrics())
            {
                final Metric declared = declarations.get(metric);
                if (declared == null || declared.kind() == MetricKind.HISTOGRAM)
                {
                    // histograms are read at each push by OtlpHistograms
                    continue;
                }
                final List<String> labelValues = declared.label() != null ? declared.values() : List.of("");
                for (String value : labelValues)
                {
                    // the attributes are in the key: a reload that renames the namespace or changes them re-registers
                    final String key = config.name() + " " + config.telemetry().attributes() + " " + binding.name() + ":"
                        + declared.seriesName(value);
                    selected.add(key);
                    if (!registered.containsKey(key))
                    {
                        registered.put(key, register(config, binding.name(), declared, value));
                    }
                }
            }
        }
        // the engine's own metrics: the namespace's list alone selects them, and they have no binding attribute
        for (Metric declared : declarations.values())
        {
            if (declared.name().startsWith("engine.") && TelemetryConfig.selects(config.telemetry().metrics(), declared.name()))
            {
                final String key = config.name() + " " + config.telemetry().attributes() + " " + declared.name();
                selected.add(key);
                if (!registered.containsKey(key))
                {
                    registered.put(key, register(config, null, declared, ""));
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

    private Meter register(NamespaceConfig config, String binding, Metric declared, String value)
    {
        final String series = declared.seriesName(value);
        final String scope = binding != null ? binding : EngineMetrics.ENGINE_SCOPE;
        final double scale = OtlpUnits.scale(declared.unit());
        final List<Tag> tags = tags(config, binding);
        if (declared.label() != null)
        {
            tags.add(Tag.of(declared.label(), value));
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
