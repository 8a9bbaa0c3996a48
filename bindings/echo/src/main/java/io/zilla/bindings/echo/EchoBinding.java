/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.echo;

import java.net.URL;
import java.util.Set;

import io.zilla.bindings.echo.stream.EchoServerFactory;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.KindConfig;

/** The echo binding: kind server only; every stream's reply carries back what its initial direction carried. */
public final class EchoBinding implements Binding
{
    public static final String TYPE = "echo";

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.SERVER);
    }

    /** An echo answers every stream itself. */
    @Override
    public boolean hasExits(KindConfig kind)
    {
        return false;
    }

    @Override
    public URL schema()
    {
        return EchoBinding.class.getResource("schema/echo.schema.json");
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new EchoBindingContext(new EchoServerFactory(context));
    }
}
