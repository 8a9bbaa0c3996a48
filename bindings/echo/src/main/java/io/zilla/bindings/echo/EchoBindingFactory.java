/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.echo;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;

/** Registers the {@code echo} binding type with the engine. */
public final class EchoBindingFactory implements BindingFactorySpi
{
    @Override
    public String type()
    {
        return EchoBinding.TYPE;
    }

    @Override
    public Binding create(EngineConfiguration configuration)
    {
        return new EchoBinding();
    }
}
