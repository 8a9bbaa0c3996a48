/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.config;

import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.config.ValueTemplate;
import io.zilla.engine.config.WithConfig;

/**
 * A route's {@code with}: the topic, the filters, the form of each event's id and where a stream without a last event
 * id starts (null: wherever the exit starts a merged stream that names no offsets).
 */
public record SseKafkaWithConfig(ValueTemplate topic, List<SseKafkaFilterConfig> filters, EventIdFormat eventId,
    DefaultOffset defaultOffset) implements WithConfig
{
    public static final String ETAG = "${etag}";
    public static final String KEY_AND_ETAG = "[\"${base64(key)}\",\"${etag}\"]";

    public SseKafkaWithConfig
    {
        filters = List.copyOf(filters);
    }

    /** The form of an event's id. */
    public enum EventIdFormat
    {
        /** {@code ${etag}}: the progress token alone. */
        ETAG,
        /** {@code ["${base64(key)}","${etag}"]}: a JSON array of the record's key in base64url and the token. */
        KEY_AND_ETAG
    }

    /** Where a stream without a (usable) last event id starts, as a kafka cache's {@code defaultOffset} says it. */
    public enum DefaultOffset
    {
        /** Each partition's end: only what is written from now on. */
        LIVE,
        /** Each partition's oldest record. */
        HISTORICAL
    }

    /** Every parameter the topic and filters name, with where it is from the {@code with} node. */
    public List<String[]> params()
    {
        final List<String[]> named = new ArrayList<>();
        topic.params().forEach(param -> named.add(new String[] {"topic", param}));
        for (int i = 0; i < filters.size(); i++)
        {
            final SseKafkaFilterConfig filter = filters.get(i);
            final String at = "filters[" + i + "]";
            if (filter.key() != null)
            {
                filter.key().params().forEach(param -> named.add(new String[] {at + ".key", param}));
            }
            for (SseKafkaFilterConfig.Header header : filter.headers())
            {
                header.value().params().forEach(param -> named.add(new String[] {at + ".headers." + header.name(), param}));
            }
        }
        return named;
    }
}
