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
import io.zilla.engine.config.KindConfig;
import io.zilla.specs.kafka.codec.BrokerAddress;
import org.agrona.collections.Long2ObjectHashMap;

/** The kafka bindings of one worker: a proxy factory or a client factory per binding. */
public final class KafkaBindingContext implements BindingContext
{
    private final EngineContext context;
    private final LongFunction<Map<Integer, BrokerAddress>> brokers;
    private final LongFunction<KafkaPartialRequests> partialRequests;
    private final KafkaClientSettings settings;
    private final Long2ObjectHashMap<KafkaProxyFactory> proxies = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<KafkaClientFactory> clients = new Long2ObjectHashMap<>();

    public KafkaBindingContext(EngineContext context, LongFunction<Map<Integer, BrokerAddress>> brokers,
        LongFunction<KafkaPartialRequests> partialRequests, KafkaClientSettings settings)
    {
        this.context = context;
        this.brokers = brokers;
        this.partialRequests = partialRequests;
        this.settings = settings;
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        final BindingHandler handler;
        if (binding.kind() == KindConfig.CLIENT)
        {
            final KafkaClientFactory factory = new KafkaClientFactory(context, binding, settings);
            clients.put(binding.id(), factory);
            handler = factory;
        }
        else
        {
            final KafkaProxyFactory factory = new KafkaProxyFactory(context, binding, brokers.apply(binding.id()),
                partialRequests.apply(binding.id()));
            proxies.put(binding.id(), factory);
            handler = factory;
        }
        return handler;
    }

    @Override
    public void detach(BindingConfig binding)
    {
        final KafkaProxyFactory proxy = proxies.remove(binding.id());
        if (proxy != null)
        {
            proxy.close();
        }
        final KafkaClientFactory client = clients.remove(binding.id());
        if (client != null)
        {
            client.close();
        }
    }
}
