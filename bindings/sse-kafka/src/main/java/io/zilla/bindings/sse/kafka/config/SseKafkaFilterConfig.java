/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.config;

import java.util.List;

import io.zilla.engine.config.ValueTemplate;

/**
 * One of a route's filters: a record matches when its key equals {@code key} (if given) and it has every header of
 * {@code headers}; a route's filters are OR-ed, as a Kafka merged stream's are.
 */
public record SseKafkaFilterConfig(ValueTemplate key, List<Header> headers)
{
    public SseKafkaFilterConfig
    {
        headers = List.copyOf(headers);
    }

    /** A header a record must have: its literal name and the value's template. */
    public record Header(String name, ValueTemplate value)
    {
    }
}
