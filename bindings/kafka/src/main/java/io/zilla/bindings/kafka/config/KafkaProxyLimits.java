/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.config;

/**
 * What a kafka proxy's clients may ask of it, and of the brokers behind it ({@code options.limits}). A broker
 * allocates a buffer of a request's declared size as soon as it has read the request's length, and keeps it until the
 * request is whole; the proxy passes requests through as they come, so these bound what clients can make the brokers
 * hold, and for how long.
 *
 * @param requestMaxBytes         the largest request (its size, without the 4 bytes that give it), as the broker's
 *                                {@code socket.request.max.bytes}: a larger one closes its connection
 * @param requestTimeout          the most milliseconds a request may take from its first byte to its last
 * @param partialRequestsMaxBytes the most bytes that the requests still arriving, on all the binding's connections and
 *                                workers, may declare together: a request that would go over closes its connection
 */
public record KafkaProxyLimits(int requestMaxBytes, long requestTimeout, long partialRequestsMaxBytes)
{
    /** Kafka's default {@code socket.request.max.bytes}: 100 MiB. */
    public static final int DEFAULT_REQUEST_MAX_BYTES = 104_857_600;

    /** As kafka-clients' {@code request.timeout.ms}: by then a Kafka client has given up on the request itself. */
    public static final long DEFAULT_REQUEST_TIMEOUT = 30_000L;

    /** 256 MiB: two and a half of the largest requests, a quarter of a broker's default 1 GiB heap. */
    public static final long DEFAULT_PARTIAL_REQUESTS_MAX_BYTES = 268_435_456L;

    public static final KafkaProxyLimits DEFAULTS = new KafkaProxyLimits(DEFAULT_REQUEST_MAX_BYTES, DEFAULT_REQUEST_TIMEOUT,
        DEFAULT_PARTIAL_REQUESTS_MAX_BYTES);

    public KafkaProxyLimits
    {
        if (partialRequestsMaxBytes < requestMaxBytes)
        {
            throw new IllegalArgumentException("partial-requests-max-bytes (" + partialRequestsMaxBytes
                + ") is below request-max-bytes (" + requestMaxBytes + "): no request of the largest size could pass");
        }
    }
}
