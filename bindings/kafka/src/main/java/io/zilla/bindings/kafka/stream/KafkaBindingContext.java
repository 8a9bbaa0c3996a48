/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.Map;
import java.util.function.LongFunction;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.kafka.codec.BrokerAddress;
import org.agrona.collections.Long2ObjectHashMap;

/** The kafka bindings of one worker: a proxy factory per binding. */
public final class KafkaBindingContext implements BindingContext
{
    private final EngineContext context;
    private final LongFunction<Map<Integer, BrokerAddress>> brokers;
    private final Long2ObjectHashMap<KafkaProxyFactory> factories = new Long2ObjectHashMap<>();

    public KafkaBindingContext(EngineContext context, LongFunction<Map<Integer, BrokerAddress>> brokers)
    {
        this.context = context;
        this.brokers = brokers;
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        final KafkaProxyFactory factory = new KafkaProxyFactory(context, binding, brokers.apply(binding.id()));
        factories.put(binding.id(), factory);
        return factory;
    }

    @Override
    public void detach(BindingConfig binding)
    {
        final KafkaProxyFactory factory = factories.remove(binding.id());
        if (factory != null)
        {
            factory.close();
        }
    }
}
