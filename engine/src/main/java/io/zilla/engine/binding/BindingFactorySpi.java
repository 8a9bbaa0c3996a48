/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding;

import io.zilla.engine.EngineConfiguration;

/**
 * A binding type, found with {@link java.util.ServiceLoader}: each binding module lists its implementation in
 * {@code META-INF/services/io.zilla.engine.binding.BindingFactorySpi}.
 */
public interface BindingFactorySpi
{
    /** The {@code type} that zilla.yaml names, such as {@code tcp}. */
    String type();

    /** Called once per engine. */
    Binding create(EngineConfiguration configuration);
}
