/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.config;

import java.util.List;

/**
 * The CORS policy of an http server. Same-origin leaves requests as they are; cross-origin has the binding answer
 * preflights and add the Access-Control-* headers to responses.
 *
 * @param crossOrigin whether the policy is cross-origin
 * @param origins     the allowed origins (lower case), or null for any
 * @param methods     the allowed methods, or null for any
 * @param headers     the allowed request headers (lower case), or null for any
 * @param credentials whether credentials are allowed
 * @param maxAge      how long a preflight's answer may be cached, in seconds, or -1 when not said
 * @param expose      the response headers exposed to scripts (lower case), or null for all
 */
public record HttpAccessControlConfig(boolean crossOrigin, List<String> origins, List<String> methods,
    List<String> headers, boolean credentials, int maxAge, List<String> expose)
{
    public static final HttpAccessControlConfig SAME_ORIGIN = new HttpAccessControlConfig(false, null, null, null, false,
        -1, null);

    public HttpAccessControlConfig
    {
        origins = origins != null ? List.copyOf(origins) : null;
        methods = methods != null ? List.copyOf(methods) : null;
        headers = headers != null ? List.copyOf(headers) : null;
        expose = expose != null ? List.copyOf(expose) : null;
    }
}
