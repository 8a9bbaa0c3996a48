/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.metrics;

import java.util.Set;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * The stream.* metrics of one binding on a worker, in the worker's counters file as {@code <binding>:<metric>}.
 * A metric the binding's telemetry does not select is null, so that the dispatcher pays one null check for it.
 */
public final class StreamMetrics
{
    public final AtomicCounter opensReceived;
    public final AtomicCounter opensSent;
    public final AtomicCounter closesReceived;
    public final AtomicCounter closesSent;
    public final AtomicCounter errorsReceived;
    public final AtomicCounter errorsSent;
    public final AtomicCounter dataReceived;
    public final AtomicCounter dataSent;
    public final AtomicCounter activeReceived;
    public final AtomicCounter activeSent;

    private StreamMetrics(WorkerCounters counters, String bindingName, Set<String> metrics)
    {
        this.opensReceived = supply(counters, bindingName, metrics, "stream.opens.received");
        this.opensSent = supply(counters, bindingName, metrics, "stream.opens.sent");
        this.closesReceived = supply(counters, bindingName, metrics, "stream.closes.received");
        this.closesSent = supply(counters, bindingName, metrics, "stream.closes.sent");
        this.errorsReceived = supply(counters, bindingName, metrics, "stream.errors.received");
        this.errorsSent = supply(counters, bindingName, metrics, "stream.errors.sent");
        this.dataReceived = supply(counters, bindingName, metrics, "stream.data.received");
        this.dataSent = supply(counters, bindingName, metrics, "stream.data.sent");
        this.activeReceived = supply(counters, bindingName, metrics, "stream.active.received");
        this.activeSent = supply(counters, bindingName, metrics, "stream.active.sent");
    }

    /** The binding's stream metrics, or null when it records none of them. */
    public static StreamMetrics of(WorkerCounters counters, String bindingName, Set<String> metrics)
    {
        final boolean any = metrics.stream().anyMatch(metric -> metric.startsWith("stream."));
        return any ? new StreamMetrics(counters, bindingName, metrics) : null;
    }

    private static AtomicCounter supply(WorkerCounters counters, String bindingName, Set<String> metrics, String metric)
    {
        return metrics.contains(metric) ? counters.supply(bindingName, metric) : null;
    }
}
