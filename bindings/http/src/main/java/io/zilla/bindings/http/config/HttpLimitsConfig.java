/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.config;

/**
 * What an http server lets one request take before it refuses it.
 *
 * @param headerListSize    the most bytes of a request line and its headers (431 past it, 414 for the line alone)
 * @param headerTimeout     the most milliseconds a request's headers may take to arrive (408 past it)
 * @param concurrentStreams HTTP/2: the most streams open at once on a connection
 */
public record HttpLimitsConfig(int headerListSize, long headerTimeout, int concurrentStreams)
{
    public static final int DEFAULT_HEADER_LIST_SIZE = 16_384;
    public static final long DEFAULT_HEADER_TIMEOUT = 10_000;
    public static final int DEFAULT_CONCURRENT_STREAMS = 100;

    public static final HttpLimitsConfig DEFAULTS = new HttpLimitsConfig(DEFAULT_HEADER_LIST_SIZE, DEFAULT_HEADER_TIMEOUT,
        DEFAULT_CONCURRENT_STREAMS);
}
