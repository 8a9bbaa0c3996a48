/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

import io.zilla.engine.config.OptionsConfig;

/**
 * The options of an http binding.
 *
 * @param versions      the versions to speak: {@code http/1.1}, {@code h2}
 * @param accessControl server: the CORS policy
 * @param overrides     headers set on every request, name (lower case) to value
 * @param limits        server: what a request may take
 */
public record HttpOptionsConfig(Set<String> versions, HttpAccessControlConfig accessControl, Map<String, String> overrides,
    HttpLimitsConfig limits) implements OptionsConfig
{
    public static final String HTTP_1_1 = "http/1.1";
    public static final String H2 = "h2";

    public static final HttpOptionsConfig DEFAULTS = new HttpOptionsConfig(Set.of(HTTP_1_1, H2),
        HttpAccessControlConfig.SAME_ORIGIN, Map.of(), HttpLimitsConfig.DEFAULTS);

    public HttpOptionsConfig
    {
        versions = Set.copyOf(versions);
        overrides = Collections.unmodifiableMap(new LinkedHashMap<>(overrides));
    }
}
