/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;

/** Registers the {@code http-kafka} binding type with the engine. */
public final class HttpKafkaBindingFactory implements BindingFactorySpi
{
    @Override
    public String type()
    {
        return HttpKafkaBinding.TYPE;
    }

    @Override
    public Binding create(EngineConfiguration configuration)
    {
        return new HttpKafkaBinding();
    }
}
