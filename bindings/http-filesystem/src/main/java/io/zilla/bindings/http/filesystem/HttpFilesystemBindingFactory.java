/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;

/** Registers the {@code http-filesystem} binding type with the engine. */
public final class HttpFilesystemBindingFactory implements BindingFactorySpi
{
    @Override
    public String type()
    {
        return HttpFilesystemBinding.NAME;
    }

    @Override
    public Binding create(EngineConfiguration configuration)
    {
        return new HttpFilesystemBinding();
    }
}
