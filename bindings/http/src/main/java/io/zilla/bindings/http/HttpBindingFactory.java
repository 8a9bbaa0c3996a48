/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;

/** The http binding's entry point, listed in META-INF/services for {@link java.util.ServiceLoader}. */
public final class HttpBindingFactory implements BindingFactorySpi
{
    @Override
    public String type()
    {
        return HttpBinding.NAME;
    }

    @Override
    public Binding create(EngineConfiguration configuration)
    {
        return new HttpBinding(configuration);
    }
}
