/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.config;

import io.zilla.engine.config.ConditionConfig;
import org.agrona.DirectBuffer;

/** A route's {@code when} entry: the request's path matches {@code path}, a pattern compiled once. */
public record SseConditionConfig(String path, SsePathPattern pattern) implements ConditionConfig
{
    public SseConditionConfig(String path)
    {
        this(path, SsePathPattern.compile(path));
    }

    /** Whether the request path (with its query) in {@code buffer} matches. */
    public boolean matches(DirectBuffer buffer, int offset, int length)
    {
        return pattern.matches(buffer, offset, length);
    }
}
