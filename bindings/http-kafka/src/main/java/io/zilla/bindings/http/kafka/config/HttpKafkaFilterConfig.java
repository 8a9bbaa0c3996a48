/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.config;

import java.util.List;

import io.zilla.engine.config.ValueTemplate;

/**
 * A fetch route's filter: a record matches when its key is {@code key} (null: any) and, for each i, it has the header
 * {@code names[i]} with the value {@code values[i]}. A route's filters are OR-ed.
 */
public record HttpKafkaFilterConfig(ValueTemplate key, List<String> names, List<ValueTemplate> values)
{
    public HttpKafkaFilterConfig
    {
        names = List.copyOf(names);
        values = List.copyOf(values);
    }
}
