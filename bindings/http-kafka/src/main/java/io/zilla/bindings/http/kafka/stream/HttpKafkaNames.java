/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Map;

import io.zilla.bindings.http.kafka.config.HttpKafkaWithConfig;
import io.zilla.engine.config.ValueTemplate;

/**
 * The bytes of the names a worker writes into every record (configured header names, a route's overrides), encoded
 * once rather than per request. Bounded: a config reload brings new routes, so the caches start again past
 * {@link #MAX_ENTRIES}.
 */
final class HttpKafkaNames
{
    private static final int MAX_ENTRIES = 1024;

    /** A route's overrides: the header names as bytes and their values, in the order configured. */
    record Overrides(byte[][] names, ValueTemplate[] values)
    {
    }

    private final Map<String, byte[]> bytes = new HashMap<>();
    private final Map<HttpKafkaWithConfig, Overrides> overrides = new IdentityHashMap<>();

    /** The UTF-8 bytes of {@code name}, null for null. */
    byte[] bytes(String name)
    {
        byte[] encoded = null;
        if (name != null)
        {
            encoded = bytes.get(name);
            if (encoded == null)
            {
                if (bytes.size() >= MAX_ENTRIES)
                {
                    bytes.clear();
                }
                encoded = name.getBytes(UTF_8);
                bytes.put(name, encoded);
            }
        }
        return encoded;
    }

    Overrides overrides(HttpKafkaWithConfig with)
    {
        Overrides found = overrides.get(with);
        if (found == null)
        {
            if (overrides.size() >= MAX_ENTRIES)
            {
                overrides.clear();
            }
            final int count = with.overrides().size();
            final byte[][] names = new byte[count][];
            final ValueTemplate[] values = new ValueTemplate[count];
            int i = 0;
            for (Map.Entry<String, ValueTemplate> override : with.overrides().entrySet())
            {
                names[i] = override.getKey().getBytes(UTF_8);
                values[i] = override.getValue();
                i++;
            }
            found = new Overrides(names, values);
            overrides.put(with, found);
        }
        return found;
    }
}
