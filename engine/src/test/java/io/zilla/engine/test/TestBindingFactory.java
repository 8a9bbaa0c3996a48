/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;

/** Registers the {@code test} binding type (found with ServiceLoader from the engine's test-jar). */
public final class TestBindingFactory implements BindingFactorySpi
{
    @Override
    public String type()
    {
        return TestBinding.TYPE;
    }

    @Override
    public Binding create(EngineConfiguration configuration)
    {
        return new TestBinding();
    }
}
