/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.zilla.engine.config.ConditionConfig;

/**
 * One {@code when} entry of an http route: every header it names must be present with a matching value
 * ({@link HttpPattern}); names are compared without regard to case. An entry that names none matches every request.
 *
 * @param headers name (lower case) to the value from zilla.yaml, in file order
 */
public record HttpConditionConfig(Map<String, String> headers) implements ConditionConfig
{
    public HttpConditionConfig
    {
        headers = Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    }

    /** The headers compiled for matching: names as lower-case bytes, values as patterns. */
    public List<Matcher> matchers()
    {
        final List<Matcher> matchers = new ArrayList<>();
        headers.forEach((name, value) ->
        {
            final String lower = name.toLowerCase(Locale.ROOT);
            matchers.add(new Matcher(lower.getBytes(StandardCharsets.US_ASCII),
                HttpPattern.compile(value, ":path".equals(lower))));
        });
        return matchers;
    }

    /** One header of a condition: its lower-case name and the pattern its value must match. */
    public record Matcher(byte[] name, HttpPattern pattern)
    {
    }
}
