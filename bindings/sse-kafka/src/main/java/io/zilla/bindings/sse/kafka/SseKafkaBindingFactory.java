/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;

/** Registers the {@code sse-kafka} binding type with the engine. */
public final class SseKafkaBindingFactory implements BindingFactorySpi
{
    @Override
    public String type()
    {
        return SseKafkaBinding.TYPE;
    }

    @Override
    public Binding create(EngineConfiguration configuration)
    {
        return new SseKafkaBinding();
    }
}
