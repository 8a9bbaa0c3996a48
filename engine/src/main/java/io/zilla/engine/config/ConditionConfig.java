/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

/** One {@code when} entry of a route, bound by the binding type; the binding decides what matches it. */
public interface ConditionConfig
{
}
