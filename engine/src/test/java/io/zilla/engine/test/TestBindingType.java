/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.net.URL;
import java.util.EnumSet;
import java.util.Set;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;
import io.zilla.engine.config.KindConfig;

/**
 * A binding type that a test defines in code, to show how the engine treats a binding (one that throws, loops,
 * signals from other threads...): the one object is its factory and its type, for an engine built with
 * {@code EngineExtension.binding(...)}, and has no schema, so it runs configs built in code. A subclass gives
 * {@link #supply} and, for a schema, overrides {@link #schema}.
 */
public abstract class TestBindingType implements BindingFactorySpi, Binding
{
    private final String type;
    private final Set<KindConfig> kinds;

    protected TestBindingType(String type, KindConfig kind, KindConfig... more)
    {
        this.type = type;
        this.kinds = Set.copyOf(EnumSet.of(kind, more));
    }

    @Override
    public final String type()
    {
        return type;
    }

    @Override
    public final Binding create(EngineConfiguration configuration)
    {
        return this;
    }

    @Override
    public final Set<KindConfig> kinds()
    {
        return kinds;
    }

    @Override
    public URL schema()
    {
        return null;
    }
}
