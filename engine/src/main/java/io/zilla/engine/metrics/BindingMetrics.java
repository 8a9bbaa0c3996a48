/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * The metrics one binding records on one worker ({@link io.zilla.engine.binding.EngineContext#supplyMetrics(long)}).
 * Each method returns null when the binding's telemetry does not select the metric, so that a binding asks once, when
 * it attaches, and its data path pays one null check ({@link Metrics}) for a metric nobody wants.
 */
public interface BindingMetrics
{
    /** Whether the binding's telemetry selects the metric, without making its series. */
    boolean selects(Metric metric);

    /** A counter or a gauge, in the worker's counters file; null when not selected. */
    AtomicCounter counter(Metric metric);

    /**
     * The series of a labelled counter for one of its declared values ({@link Metric#seriesName}); null when not
     * selected.
     */
    AtomicCounter counter(Metric metric, String value);

    /** A histogram, in the worker's histograms file; null when not selected. */
    Histogram histogram(Metric metric);

    /**
     * One labelled series of a histogram, {@code <metric>{<labels>}} in the worker's histograms file; null when not
     * selected. {@code labels} is {@code name=value} pairs joined by commas: a labelled metric's {@code label=value}
     * for one of its declared values ({@code api=produce}), or the binding's {@code telemetry.attributes} resolved for
     * one request ({@code method=GET,status=200}). A binding asks once per distinct set and keeps what it gets.
     */
    Histogram histogram(Metric metric, String labels);
}
