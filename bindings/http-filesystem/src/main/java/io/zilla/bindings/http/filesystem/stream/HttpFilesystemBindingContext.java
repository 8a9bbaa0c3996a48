/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem.stream;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;

/** The http-filesystem binding on one worker: one proxy factory for every binding. */
public final class HttpFilesystemBindingContext implements BindingContext
{
    private final HttpFilesystemProxyFactory factory;

    public HttpFilesystemBindingContext(EngineContext context)
    {
        this.factory = new HttpFilesystemProxyFactory(context);
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        return factory.attach(binding);
    }

    @Override
    public void detach(BindingConfig binding)
    {
        factory.detach(binding.id());
    }
}
