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
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
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

    /** The histograms, in the order of a label set's ({@link HttpAttributes#histograms}). */
    static final Metric[] HISTOGRAMS = { DURATION, REQUEST_SIZE, RESPONSE_SIZE };
    static final int DURATION_INDEX = 0;
    static final int REQUEST_SIZE_INDEX = 1;
    static final int RESPONSE_SIZE_INDEX = 2;

    final AtomicCounter active;
    /** The histograms of a binding without attributes, in the order of {@link #HISTOGRAMS}; null with attributes. */
    final Histogram[] histograms;
    /** The binding's attributes, which then label the histograms per request; null without. */
    final HttpAttributes attributes;
    /** Whether the request's method is wanted at its start: an attribute names it. */
    final boolean byMethod;
    /** Whether the time of a request is taken: http.duration is selected. */
    final boolean timed;
    /** Whether any is selected: when none is, a request costs one test of this flag. */
    final boolean any;

    private final HttpRequestMetrics unmeasured;
    private final HttpBeginExFW headersRO = new HttpBeginExFW();
    private final Http1HeaderEncoder headers = new Http1HeaderEncoder();

    HttpMetrics(EngineContext context, BindingConfig binding)
    {
        final BindingMetrics metrics = context.supplyMetrics(binding.id());
        this.active = metrics.counter(ACTIVE_REQUESTS);
        boolean anyHistogram = false;
        for (Metric histogram : HISTOGRAMS)
        {
            anyHistogram |= metrics.selects(histogram);
        }
        // with attributes a histogram's series are made per label set, and never without labels
        final boolean labelled = anyHistogram && !binding.attributes().isEmpty();
        this.histograms = labelled ? null : new Histogram[HISTOGRAMS.length];
        for (int i = 0; !labelled && i < HISTOGRAMS.length; i++)
        {
            histograms[i] = metrics.histogram(HISTOGRAMS[i]);
        }
        this.attributes = labelled ? new HttpAttributes(metrics, binding.attributes()) : null;
        this.byMethod = labelled && binding.attributes().containsValue(HttpAttributes.METHOD);
        this.timed = metrics.selects(DURATION);
        this.any = active != null || anyHistogram;
        this.unmeasured = any ? null : new HttpRequestMetrics(this);
    }

    /**
     * The metrics of a request: its own when any http.* metric is selected, else one shared by every request of the
     * worker, which records nothing (a request of a binding without metrics then costs no object: 56 B of every idle
     * SSE connection's heap).
     */
    HttpRequestMetrics newRequestMetrics()
    {
        return any ? new HttpRequestMetrics(this) : unmeasured;
    }

    /** {@link HttpAttributes#methodIndex} of the method in a request's header list. */
    int methodIndex(DirectBuffer extension, int length)
    {
        final HttpHeaderFW method = headers.find(headersRO.wrap(extension, 0, length), ":method");
        final String16FW value = method != null ? method.value() : null;
        return value != null
            ? HttpAttributes.methodIndex(value.buffer(), value.valueOffset(), value.length())
            : HttpAttributes.OTHER_METHOD;
    }
}
