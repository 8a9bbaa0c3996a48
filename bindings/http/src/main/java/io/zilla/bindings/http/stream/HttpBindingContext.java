/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.bindings.http.config.Http2FloodLimits;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import org.agrona.collections.Long2ObjectHashMap;

/** The http binding type on one worker: a factory per attached binding, of its kind. */
public final class HttpBindingContext implements BindingContext
{
    private final EngineContext context;
    private final Http2FloodLimits floods;
    private final Long2ObjectHashMap<HttpServerFactory> servers = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<HttpClientFactory> clients = new Long2ObjectHashMap<>();

    public HttpBindingContext(EngineContext context, Http2FloodLimits floods)
    {
        this.context = context;
        this.floods = floods;
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        return switch (binding.kind())
        {
            case SERVER ->
            {
                final HttpServerFactory server = new HttpServerFactory(context, binding, floods);
                servers.put(binding.id(), server);
                yield server;
            }
            case CLIENT ->
            {
                final HttpClientFactory client = new HttpClientFactory(context, binding, floods);
                clients.put(binding.id(), client);
                yield client;
            }
            default -> throw new IllegalArgumentException("bindings." + binding.name() + ": http kind "
                + binding.kind().yamlName() + " is not supported");
        };
    }

    @Override
    public void detach(BindingConfig binding)
    {
        final HttpServerFactory server = servers.remove(binding.id());
        if (server != null)
        {
            server.close();
        }
        final HttpClientFactory client = clients.remove(binding.id());
        if (client != null)
        {
            client.close();
        }
    }

    @Override
    public void close()
    {
        servers.values().forEach(HttpServerFactory::close);
        servers.clear();
        clients.values().forEach(HttpClientFactory::close);
        clients.clear();
    }
}
