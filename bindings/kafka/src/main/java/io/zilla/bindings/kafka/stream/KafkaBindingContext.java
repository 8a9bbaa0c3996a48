/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.Map;
import java.util.function.Function;
import java.util.function.LongFunction;

import io.zilla.bindings.kafka.cache.CacheRegistry;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.specs.kafka.codec.BrokerAddress;
import org.agrona.collections.Long2ObjectHashMap;

/** The kafka bindings of one worker: a proxy, client, cache_client or cache_server factory per binding. */
public final class KafkaBindingContext implements BindingContext
{
    private final EngineContext context;
    private final LongFunction<Map<Integer, BrokerAddress>> brokers;
    private final LongFunction<KafkaPartialRequests> partialRequests;
    private final KafkaClientSettings settings;
    private final Long2ObjectHashMap<KafkaProxyFactory> proxies = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<KafkaClientFactory> clients = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<KafkaCacheServerFactory> cacheServers = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<KafkaCacheClientFactory> cacheClients = new Long2ObjectHashMap<>();
    private final Function<BindingConfig, CacheRegistry> caches;
    private final KafkaCacheReaders cacheReaders;

    public KafkaBindingContext(EngineContext context, LongFunction<Map<Integer, BrokerAddress>> brokers,
        LongFunction<KafkaPartialRequests> partialRequests, KafkaClientSettings settings,
        Function<BindingConfig, CacheRegistry> caches)
    {
        this.caches = caches;
        this.cacheReaders = new KafkaCacheReaders(context);
        this.context = context;
        this.brokers = brokers;
        this.partialRequests = partialRequests;
        this.settings = settings;
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        final BindingHandler handler;
        if (binding.kind() == KindConfig.CACHE_SERVER)
        {
            final KafkaCacheServerFactory factory = new KafkaCacheServerFactory(context, binding, caches.apply(binding));
            cacheServers.put(binding.id(), factory);
            handler = factory;
        }
        else if (binding.kind() == KindConfig.CACHE_CLIENT)
        {
            final KafkaCacheClientFactory factory = new KafkaCacheClientFactory(context, binding, caches, cacheReaders);
            cacheClients.put(binding.id(), factory);
            handler = factory;
        }
        else if (binding.kind() == KindConfig.CLIENT)
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
        final KafkaCacheClientFactory cacheClient = cacheClients.remove(binding.id());
        if (cacheClient != null)
        {
            cacheClient.close();
        }
        final KafkaCacheServerFactory cacheServer = cacheServers.remove(binding.id());
        if (cacheServer != null)
        {
            cacheServer.close();
        }
        final KafkaClientFactory client = clients.remove(binding.id());
        if (client != null)
        {
            client.close();
        }
    }
}
