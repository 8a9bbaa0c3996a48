/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem.stream;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;

/** The filesystem binding on one worker: one server factory and its file reader thread for every binding. */
public final class FilesystemBindingContext implements BindingContext
{
    private final FilesystemServerFactory factory;

    public FilesystemBindingContext(EngineContext context)
    {
        this.factory = new FilesystemServerFactory(context);
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

    @Override
    public void close()
    {
        factory.close();
    }
}
