/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.util.concurrent.ExecutorService;
import java.util.function.Supplier;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;

/** The tcp binding type on one worker: a factory per kind. */
public final class TcpBindingContext implements BindingContext
{
    private final TcpResolver resolver;
    private final TcpServerFactory server;
    private final TcpClientFactory client;

    /**
     * @param context        the worker's engine context
     * @param typeId         the tcp type id that tags TcpBeginEx and TcpResetEx
     * @param connectTimeout the default connect timeout of clients, in milliseconds
     * @param resolverPool   the threads that look host names up, off the workers
     * @param listening      the addresses the engine's tcp servers listen on, shared by the workers
     */
    public TcpBindingContext(EngineContext context, int typeId, long connectTimeout, Supplier<ExecutorService> resolverPool,
        TcpListeners listening)
    {
        this.resolver = new TcpResolver(context, resolverPool);
        this.server = new TcpServerFactory(context, typeId, listening);
        this.client = new TcpClientFactory(context, typeId, resolver, connectTimeout, listening);
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        return switch (binding.kind())
        {
            case SERVER -> server.attach(binding);
            case CLIENT -> client.attach(binding);
            default -> throw new IllegalArgumentException("bindings." + binding.name() + ": tcp has no kind "
                + binding.kind().yamlName());
        };
    }

    @Override
    public void detach(BindingConfig binding)
    {
        switch (binding.kind())
        {
            case SERVER -> server.detach(binding);
            case CLIENT -> client.detach(binding);
            default ->
            {
            }
        }
    }

    @Override
    public void close()
    {
        server.close();
        client.close();
        resolver.close();
    }
}
