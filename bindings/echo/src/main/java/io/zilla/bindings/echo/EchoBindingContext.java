/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.echo;

import io.zilla.bindings.echo.stream.EchoServerFactory;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.config.BindingConfig;

/** The echo binding on one worker: every echo binding shares the worker's one server factory. */
final class EchoBindingContext implements BindingContext
{
    private final EchoServerFactory factory;

    EchoBindingContext(EchoServerFactory factory)
    {
        this.factory = factory;
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        return factory;
    }

    @Override
    public void detach(BindingConfig binding)
    {
        factory.detach(binding.id());
    }
}
