/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.List;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.metrics.BindingMetrics;
import io.zilla.engine.metrics.Buckets;
import io.zilla.engine.metrics.Histogram;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricUnit;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * The {@code http.*} metrics of a server binding on one worker (Zilla's set), each null unless the binding's telemetry
 * selects it. They count the requests that reach the route's exit, as application streams: one answered by zilla
 * itself (a 404 for no route, a CORS preflight) is not among them.
 */
public final class HttpMetrics
{
    public static final Metric ACTIVE_REQUESTS = Metric.gauge("http.active.requests",
        "Requests begun and not yet answered in full");
    public static final Metric DURATION = Metric.histogram("http.duration", MetricUnit.NANOSECONDS,
        "Time from a request's headers to the end of its response", Buckets.DURATIONS);
    public static final Metric REQUEST_SIZE = Metric.histogram("http.request.size", MetricUnit.BYTES,
        "Request body bytes", Buckets.SIZES);
    public static final Metric RESPONSE_SIZE = Metric.histogram("http.response.size", MetricUnit.BYTES,
        "Response body bytes", Buckets.SIZES);

    /** What an http binding records beyond stream.*. */
    public static final List<Metric> DECLARED = List.of(ACTIVE_REQUESTS, DURATION, REQUEST_SIZE, RESPONSE_SIZE);

    final AtomicCounter active;
    final Histogram duration;
    final Histogram requestSize;
    final Histogram responseSize;
    /** Whether any is selected: when none is, a request costs one test of this flag. */
    final boolean any;

    HttpMetrics(EngineContext context, BindingConfig binding)
    {
        final BindingMetrics metrics = context.supplyMetrics(binding.id());
        this.active = metrics.counter(ACTIVE_REQUESTS);
        this.duration = metrics.histogram(DURATION);
        this.requestSize = metrics.histogram(REQUEST_SIZE);
        this.responseSize = metrics.histogram(RESPONSE_SIZE);
        this.any = active != null || duration != null || requestSize != null || responseSize != null;
    }
}
