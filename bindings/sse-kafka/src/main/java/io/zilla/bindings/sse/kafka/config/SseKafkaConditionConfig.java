/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.config;

import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.PathPattern;

/** One {@code when} entry of an sse-kafka route: the request's path matches {@code path}. */
public record SseKafkaConditionConfig(PathPattern path) implements ConditionConfig
{
}
