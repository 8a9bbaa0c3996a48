/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

import io.zilla.engine.config.WithConfig;

/**
 * A route's {@code with}: headers set on the request when the route matches, in which {@code ${params.name}} stands
 * for what the matching condition's {@code :path} captured as {@code {name}}.
 *
 * @param overrides header name (lower case) to value template
 */
public record HttpWithConfig(Map<String, String> overrides) implements WithConfig
{
    public HttpWithConfig
    {
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
    }
}
