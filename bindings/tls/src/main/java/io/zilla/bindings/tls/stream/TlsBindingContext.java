/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import org.agrona.collections.Long2ObjectHashMap;

/** The tls binding type on one worker: a proxy factory per attached proxy binding. */
public final class TlsBindingContext implements BindingContext
{
    private final EngineContext context;
    private final long helloTimeout;
    private final TlsClientHello hello = new TlsClientHello();
    private final TlsRouteMatcher matcher = new TlsRouteMatcher();
    private final Long2ObjectHashMap<TlsProxyFactory> proxies = new Long2ObjectHashMap<>();

    /**
     * @param context      the worker's engine context
     * @param helloTimeout how long a proxy waits for a whole ClientHello, in milliseconds
     */
    public TlsBindingContext(EngineContext context, long helloTimeout)
    {
        this.context = context;
        this.helloTimeout = helloTimeout;
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        return switch (binding.kind())
        {
            case PROXY ->
            {
                final TlsProxyFactory proxy = new TlsProxyFactory(context, binding, hello, matcher, helloTimeout);
                proxies.put(binding.id(), proxy);
                yield proxy;
            }
            default -> throw new IllegalArgumentException("bindings." + binding.name() + ": tls kind "
                + binding.kind().yamlName() + " is not built yet");
        };
    }

    @Override
    public void detach(BindingConfig binding)
    {
        final TlsProxyFactory proxy = proxies.remove(binding.id());
        if (proxy != null)
        {
            proxy.close();
        }
    }

    @Override
    public void close()
    {
        proxies.values().forEach(TlsProxyFactory::close);
        proxies.clear();
    }
}
