/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

/**
 * The timeouts of a kafka client's broker connections, in ms, from the engine properties: {@code request}, how long a
 * request may wait for its response (as kafka-clients' request.timeout.ms) before its connection is failed, and
 * {@code idle}, how long a connection may go unused (as connections.max.idle.ms) before it is closed.
 */
public record KafkaClientTimeouts(long request, long idle)
{
    public static final long DEFAULT_REQUEST = 30_000L;
    public static final long DEFAULT_IDLE = 540_000L;

    public static final KafkaClientTimeouts DEFAULTS = new KafkaClientTimeouts(DEFAULT_REQUEST, DEFAULT_IDLE);
}
