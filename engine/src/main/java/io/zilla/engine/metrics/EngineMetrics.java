/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zilla.engine.binding.Binding;

/**
 * The metrics the engine itself records for every binding type alike: the {@code stream.*} metrics, counted by the
 * stream dispatcher. <em>received</em> counts the frames delivered to the binding, <em>sent</em> the frames it writes.
 */
public final class EngineMetrics
{
    public static final Metric STREAM_OPENS_RECEIVED = Metric.counter("stream.opens.received", MetricUnit.COUNT,
        "Streams begun, delivered to the binding");
    public static final Metric STREAM_OPENS_SENT = Metric.counter("stream.opens.sent", MetricUnit.COUNT,
        "Streams begun, written by the binding");
    public static final Metric STREAM_CLOSES_RECEIVED = Metric.counter("stream.closes.received", MetricUnit.COUNT,
        "Streams ended, delivered to the binding");
    public static final Metric STREAM_CLOSES_SENT = Metric.counter("stream.closes.sent", MetricUnit.COUNT,
        "Streams ended, written by the binding");
    public static final Metric STREAM_ERRORS_RECEIVED = Metric.counter("stream.errors.received", MetricUnit.COUNT,
        "Streams aborted or reset, delivered to the binding");
    public static final Metric STREAM_ERRORS_SENT = Metric.counter("stream.errors.sent", MetricUnit.COUNT,
        "Streams aborted or reset, written by the binding");
    public static final Metric STREAM_DATA_RECEIVED = Metric.counter("stream.data.received", MetricUnit.BYTES,
        "Payload bytes, delivered to the binding");
    public static final Metric STREAM_DATA_SENT = Metric.counter("stream.data.sent", MetricUnit.BYTES,
        "Payload bytes, written by the binding");
    public static final Metric STREAM_ACTIVE_RECEIVED = Metric.gauge("stream.active.received",
        "Streams open now, delivered to the binding");
    public static final Metric STREAM_ACTIVE_SENT = Metric.gauge("stream.active.sent",
        "Streams open now, written by the binding");

    public static final List<Metric> STREAM = List.of(
        STREAM_OPENS_RECEIVED, STREAM_OPENS_SENT,
        STREAM_CLOSES_RECEIVED, STREAM_CLOSES_SENT,
        STREAM_ERRORS_RECEIVED, STREAM_ERRORS_SENT,
        STREAM_DATA_RECEIVED, STREAM_DATA_SENT,
        STREAM_ACTIVE_RECEIVED, STREAM_ACTIVE_SENT);

    /**
     * What the engine's workers record of themselves, selected by the namespace's {@code telemetry.metrics} alone (no
     * binding has them) and summed over workers: {@code engine.workers} is how many there are, so that utilisation is
     * {@code 1 - rate(engine_worker_idle_seconds_total) / engine_workers}.
     */
    public static final Metric ENGINE_WORKERS = Metric.gauge("engine.workers", "Worker threads running");
    public static final Metric ENGINE_WORKER_IDLE = Metric.counter("engine.worker.idle", MetricUnit.NANOSECONDS,
        "Time the workers spent waiting for work, blocked in select");
    public static final Metric ENGINE_RING_USED = Metric.gauge("engine.ring.used", MetricUnit.BYTES,
        "Bytes of frames in the workers' rings, not yet read");
    public static final Metric ENGINE_RING_CAPACITY = Metric.gauge("engine.ring.capacity", MetricUnit.BYTES,
        "Bytes the workers' rings hold");
    public static final Metric ENGINE_RING_FULL = Metric.counter("engine.ring.full", MetricUnit.COUNT,
        "Streams aborted because a worker's ring was full");
    public static final Metric ENGINE_BUFFER_SLOTS_USED = Metric.gauge("engine.buffer.slots.used",
        "Buffer slots held by streams now");
    public static final Metric ENGINE_BUFFER_SLOTS_CAPACITY = Metric.gauge("engine.buffer.slots.capacity",
        "Buffer slots the workers have");

    public static final List<Metric> ENGINE = List.of(
        ENGINE_WORKERS, ENGINE_WORKER_IDLE,
        ENGINE_RING_USED, ENGINE_RING_CAPACITY, ENGINE_RING_FULL,
        ENGINE_BUFFER_SLOTS_USED, ENGINE_BUFFER_SLOTS_CAPACITY);

    /**
     * The name the engine's own metrics are kept under in the counters files, where a binding's name would be: not a
     * name a binding can have (those start with a letter).
     */
    public static final String ENGINE_SCOPE = "(engine)";

    /**
     * Every metric zilla can record with these binding types, by name: the engine's stream.* and engine.*, then each
     * type's own, types in the order of their names. What config checks, exporters and {@code zilla metrics} know.
     */
    public static Map<String, Metric> declared(Collection<? extends Binding> types)
    {
        final Map<String, Metric> declared = new LinkedHashMap<>();
        STREAM.forEach(metric -> declared.put(metric.name(), metric));
        ENGINE.forEach(metric -> declared.put(metric.name(), metric));
        types.stream()
            .sorted(Comparator.comparing(Binding::type))
            .forEach(type -> type.metrics().forEach(metric -> declared.put(metric.name(), metric)));
        return declared;
    }

    private EngineMetrics()
    {
    }
}
