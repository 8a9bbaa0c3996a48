/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

/** A binding type's {@code options}, bound by its {@link io.zilla.engine.binding.Binding}. */
public interface OptionsConfig
{
}
