/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;

/** The sse binding's entry point, listed in META-INF/services for {@link java.util.ServiceLoader}. */
public final class SseBindingFactory implements BindingFactorySpi
{
    @Override
    public String type()
    {
        return SseBinding.NAME;
    }

    @Override
    public Binding create(EngineConfiguration configuration)
    {
        return new SseBinding();
    }
}
