/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.config;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zilla.engine.config.ValueTemplate;
import io.zilla.engine.config.WithConfig;

/**
 * A route's {@code with}. Capability produce: the topic, the key (null: none), the acks, the header overrides, the
 * reply-to topic (null: oneway) and the async location (null: none). Capability fetch: the topic, the filters and the
 * merge (null: one record by key). Values may hold {@code ${params.name}}, and the named values of {@link #VARIABLES}
 * where the binding allows them.
 */
public record HttpKafkaWithConfig(Capability capability, ValueTemplate topic, ValueTemplate key, short acks,
    Map<String, ValueTemplate> overrides, String replyTo, ValueTemplate location, List<HttpKafkaFilterConfig> filters,
    HttpKafkaMergeConfig merge) implements WithConfig
{
    /** The named values a value may hold: {@code ${idempotencyKey}} is variable 0, {@code ${correlationId}} 1. */
    public static final String[] VARIABLES = {"idempotencyKey", "correlationId"};
    public static final int IDEMPOTENCY_KEY = 0;
    public static final int CORRELATION_ID = 1;

    public HttpKafkaWithConfig
    {
        overrides = new LinkedHashMap<>(overrides);
        filters = List.copyOf(filters);
    }

    /** What a route does with a request. */
    public enum Capability
    {
        PRODUCE,
        FETCH
    }

    /** Every template of the route, by where it is from the {@code with} node. */
    public Map<String, ValueTemplate> templates()
    {
        final Map<String, ValueTemplate> templates = new LinkedHashMap<>();
        templates.put("topic", topic);
        if (key != null)
        {
            templates.put("key", key);
        }
        overrides.forEach((name, value) -> templates.put("overrides." + name, value));
        if (location != null)
        {
            templates.put("async.location", location);
        }
        for (int i = 0; i < filters.size(); i++)
        {
            final HttpKafkaFilterConfig filter = filters.get(i);
            if (filter.key() != null)
            {
                templates.put("filters[" + i + "].key", filter.key());
            }
            for (int h = 0; h < filter.names().size(); h++)
            {
                templates.put("filters[" + i + "].headers." + filter.names().get(h), filter.values().get(h));
            }
        }
        return templates;
    }
}
