/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.config;

import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.PathPattern;

/** One {@code when} entry of an http-kafka route: the request's method (null: any) and its path match. */
public record HttpKafkaConditionConfig(String method, PathPattern path) implements ConditionConfig
{
}
