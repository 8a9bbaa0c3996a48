/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import java.util.List;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricUnit;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The {@code sse.*} metrics of a server binding on one worker (Zilla has none), each null unless selected: event
 * streams open now, events written, and streams that resumed from a last event id.
 */
public final class SseMetrics
{
    public static final Metric ACTIVE_STREAMS = Metric.gauge("sse.active.streams",
        "Event streams open now: answered 200 and not yet ended");
    public static final Metric EVENTS = Metric.counter("sse.events", MetricUnit.COUNT, "Events written to clients");
    public static final Metric RESUMES = Metric.counter("sse.resumes", MetricUnit.COUNT,
        "Event streams opened with a last event id (Last-Event-ID or lastEventId)");

    public static final List<Metric> DECLARED = List.of(ACTIVE_STREAMS, EVENTS, RESUMES);

    final AtomicCounter active;
    final AtomicCounter events;
    final AtomicCounter resumes;

    SseMetrics(EngineContext context, BindingConfig binding)
    {
        final BindingMetrics metrics = context.supplyMetrics(binding.id());
        this.active = metrics.counter(ACTIVE_STREAMS);
        this.events = metrics.counter(EVENTS);
        this.resumes = metrics.counter(RESUMES);
    }
}
