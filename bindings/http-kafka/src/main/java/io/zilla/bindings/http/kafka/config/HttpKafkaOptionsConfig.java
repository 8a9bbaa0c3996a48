/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.config;

import io.zilla.engine.config.OptionsConfig;

/**
 * An http-kafka binding's options: the request header of the idempotency key, the Kafka headers that carry a request
 * record's reply-to topic and correlation id, and the limits: the largest body, the longest wait for Kafka.
 */
public record HttpKafkaOptionsConfig(String idempotencyHeader, String replyToHeader, String correlationIdHeader,
    int bodyLimit, long waitLimit) implements OptionsConfig
{
    public static final String IDEMPOTENCY_HEADER = "idempotency-key";
    public static final String REPLY_TO_HEADER = "zilla:reply-to";
    public static final String CORRELATION_ID_HEADER = "zilla:correlation-id";
    public static final int BODY_LIMIT = 1 << 20;
    public static final long WAIT_LIMIT = 30_000L;

    public static final HttpKafkaOptionsConfig DEFAULTS = new HttpKafkaOptionsConfig(IDEMPOTENCY_HEADER, REPLY_TO_HEADER,
        CORRELATION_ID_HEADER, BODY_LIMIT, WAIT_LIMIT);
}
