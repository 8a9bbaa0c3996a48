/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.engine.metrics.Metrics;

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

    HttpRequestMetrics(HttpMetrics metrics)
    {
        this.metrics = metrics;
    }

    void begin()
    {
        if (metrics.any)
        {
            finish();
            running = true;
            startNanos = metrics.duration != null ? System.nanoTime() : 0L;
            requestBytes = 0L;
            responseBytes = 0L;
            Metrics.increment(metrics.active);
        }
    }

    void request(int bytes)
    {
        requestBytes += bytes;
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
            if (metrics.duration != null)
            {
                metrics.duration.record(System.nanoTime() - startNanos);
            }
            Metrics.record(metrics.requestSize, requestBytes);
            Metrics.record(metrics.responseSize, responseBytes);
            Metrics.decrement(metrics.active);
        }
    }
}
