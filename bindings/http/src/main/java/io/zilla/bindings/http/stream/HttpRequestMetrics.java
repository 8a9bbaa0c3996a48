/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.engine.metrics.Histogram;
import io.zilla.engine.metrics.Metrics;
import org.agrona.DirectBuffer;

/**
 * One request's part of the {@code http.*} metrics while it runs, kept by the HTTP/1.x exchange or HTTP/2 stream that
 * serves it and reused with it: from {@link #begin} (its stream to the exit opened) to {@link #finish} (the response
 * ended, or either side aborted), which records its duration and body sizes once. Nothing is allocated per request.
 */
final class HttpRequestMetrics
{
    private final HttpMetrics metrics;
    private boolean running;
    private long startNanos;
    private long requestBytes;
    private long responseBytes;
    private int method;
    private int status;

    HttpRequestMetrics(HttpMetrics metrics)
    {
        this.metrics = metrics;
    }

    /** The stream to the exit opened with the header list {@code extension} of {@code length} bytes. */
    void begin(DirectBuffer extension, int length)
    {
        if (metrics.any)
        {
            finish();
            running = true;
            startNanos = metrics.timed ? System.nanoTime() : 0L;
            requestBytes = 0L;
            responseBytes = 0L;
            method = metrics.byMethod ? metrics.methodIndex(extension, length) : 0;
            status = 0;
            Metrics.increment(metrics.active);
        }
    }

    void request(int bytes)
    {
        requestBytes += bytes;
    }

    /** The response began with {@code status}. */
    void status(int status)
    {
        this.status = status;
    }

    void response(int bytes)
    {
        responseBytes += bytes;
    }

    /** The request is over, whichever way: recorded the first time only. */
    void finish()
    {
        if (running)
        {
            running = false;
            final Histogram[] histograms = metrics.attributes != null
                ? metrics.attributes.histograms(method, status, HttpMetrics.HISTOGRAMS)
                : metrics.histograms;
            final Histogram duration = histograms[HttpMetrics.DURATION_INDEX];
            if (duration != null)
            {
                duration.record(System.nanoTime() - startNanos);
            }
            Metrics.record(histograms[HttpMetrics.REQUEST_SIZE_INDEX], requestBytes);
            Metrics.record(histograms[HttpMetrics.RESPONSE_SIZE_INDEX], responseBytes);
            Metrics.decrement(metrics.active);
        }
    }
}
