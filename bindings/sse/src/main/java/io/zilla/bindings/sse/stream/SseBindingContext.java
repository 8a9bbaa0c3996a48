/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import org.agrona.collections.Long2ObjectHashMap;

/** The sse binding type on one worker: a factory per attached binding, of its kind. */
public final class SseBindingContext implements BindingContext
{
    private final EngineContext context;
    private final SseServerShared shared;
    private final Long2ObjectHashMap<SseServerFactory> servers = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<SseClientFactory> clients = new Long2ObjectHashMap<>();

    public SseBindingContext(EngineContext context)
    {
        this.context = context;
        this.shared = new SseServerShared(context);
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        return switch (binding.kind())
        {
            case SERVER ->
            {
                final SseServerFactory server = new SseServerFactory(context, shared, binding);
                servers.put(binding.id(), server);
                yield server;
            }
            case CLIENT ->
            {
                final SseClientFactory client = new SseClientFactory(context, shared, binding);
                clients.put(binding.id(), client);
                yield client;
            }
            default -> throw new IllegalArgumentException("bindings." + binding.name() + ": sse kind "
                + binding.kind().yamlName() + " is not supported");
        };
    }

    @Override
    public void detach(BindingConfig binding)
    {
        final SseServerFactory server = servers.remove(binding.id());
        if (server != null)
        {
            server.close();
        }
        final SseClientFactory client = clients.remove(binding.id());
        if (client != null)
        {
            client.close();
        }
    }

    @Override
    public void close()
    {
        servers.values().forEach(SseServerFactory::close);
        servers.clear();
        clients.values().forEach(SseClientFactory::close);
        clients.clear();
    }
}
