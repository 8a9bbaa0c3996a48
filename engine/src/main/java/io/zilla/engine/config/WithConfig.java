/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

/** A route's {@code with}: the mapping parameters of a mapping binding (topic, key, filters...). */
public interface WithConfig
{
}
