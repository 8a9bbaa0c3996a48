/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.metrics;

import java.util.List;

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

    private EngineMetrics()
    {
    }
}
