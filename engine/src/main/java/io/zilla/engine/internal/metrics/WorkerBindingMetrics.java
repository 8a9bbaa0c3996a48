/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.metrics;

import java.util.Set;

import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.metrics.Histogram;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricKind;
import org.agrona.concurrent.status.AtomicCounter;

/** A binding's selected metrics on one worker: counters and gauges in its counters file, histograms in its own. */
public final class WorkerBindingMetrics implements BindingMetrics
{
    private final WorkerCounters counters;
    private final WorkerHistograms histograms;
    private final String bindingName;
    private final Set<String> selected;

    public WorkerBindingMetrics(WorkerCounters counters, WorkerHistograms histograms, String bindingName, Set<String> selected)
    {
        this.counters = counters;
        this.histograms = histograms;
        this.bindingName = bindingName;
        this.selected = selected;
    }

    @Override
    public boolean selects(Metric metric)
    {
        return selected.contains(metric.name());
    }

    @Override
    public AtomicCounter counter(Metric metric)
    {
        if (metric.label() != null)
        {
            throw new IllegalArgumentException(metric.name() + " has a label: ask for the counter of one of its values");
        }
        return metric.kind() != MetricKind.HISTOGRAM && selected.contains(metric.name())
            ? counters.supply(bindingName, metric.name())
            : null;
    }

    @Override
    public AtomicCounter counter(Metric metric, String value)
    {
        if (!metric.values().contains(value))
        {
            throw new IllegalArgumentException(metric.name() + ": " + value + " is not among " + metric.values());
        }
        return selected.contains(metric.name()) ? counters.supply(bindingName, metric.seriesName(value)) : null;
    }

    @Override
    public Histogram histogram(Metric metric)
    {
        return metric.kind() == MetricKind.HISTOGRAM && selected.contains(metric.name())
            ? histograms.supply(bindingName, metric.name(), metric.buckets())
            : null;
    }

    @Override
    public Histogram histogram(Metric metric, String labels)
    {
        if (metric.label() != null && !metric.values().contains(labelValue(metric, labels)))
        {
            throw new IllegalArgumentException(metric.name() + ": " + labels + " is not " + metric.label() + "= one of "
                + metric.values());
        }
        return metric.kind() == MetricKind.HISTOGRAM && selected.contains(metric.name())
            ? histograms.supply(bindingName, metric.name() + "{" + labels + "}", metric.buckets())
            : null;
    }

    private static String labelValue(Metric metric, String labels)
    {
        final String prefix = metric.label() + "=";
        return labels.startsWith(prefix) ? labels.substring(prefix.length()) : null;
    }
}
