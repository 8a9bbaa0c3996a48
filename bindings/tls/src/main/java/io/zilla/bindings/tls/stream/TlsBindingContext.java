/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.security.GeneralSecurityException;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

import io.zilla.bindings.tls.engine.TlsEngineProvider;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.vault.VaultHandler;
import org.agrona.collections.Long2ObjectHashMap;

/** The tls binding type on one worker: a factory per attached binding, of its kind. */
public final class TlsBindingContext implements BindingContext
{
    private final EngineContext context;
    private final long helloTimeout;
    private final Supplier<TlsEngineProvider> provider;
    private final Executor tasks;
    private final Map<Object, Object> contexts;
    private final TlsClientHello hello = new TlsClientHello();
    private final TlsRouteMatcher matcher = new TlsRouteMatcher();
    private TlsScratch scratch;
    private final Long2ObjectHashMap<TlsProxyFactory> proxies = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<TlsServerFactory> servers = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<TlsClientFactory> clients = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<SharedKey> sharedKeys = new Long2ObjectHashMap<>();

    /**
     * @param context      the worker's engine context
     * @param helloTimeout how long a proxy waits for a whole ClientHello, and a server or client for a handshake, in ms
     * @param provider     makes the TLS contexts of kinds server and client, asked when the first of them attaches
     * @param tasks        runs the handshakes' delegated tasks, off the workers
     * @param contexts     the TLS contexts of the engine's bindings, shared by the workers (made by the first to attach)
     */
    public TlsBindingContext(EngineContext context, long helloTimeout, Supplier<TlsEngineProvider> provider,
        Executor tasks, Map<Object, Object> contexts)
    {
        this.context = context;
        this.helloTimeout = helloTimeout;
        this.provider = provider;
        this.tasks = tasks;
        this.contexts = contexts;
    }

    // made with the first server or client: its buffers depend on the provider (heap for the JDK's, direct otherwise)
    private TlsScratch scratch()
    {
        if (scratch == null)
        {
            scratch = new TlsScratch(context, tasks, helloTimeout, provider.get());
        }
        return scratch;
    }

    @Override
    public BindingHandler attach(BindingConfig binding)
    {
        final VaultHandler vault = context.supplyVault(binding.id());
        return switch (binding.kind())
        {
            case PROXY ->
            {
                final TlsProxyFactory proxy = new TlsProxyFactory(context, binding, hello, matcher, helloTimeout);
                proxies.put(binding.id(), proxy);
                yield proxy;
            }
            case SERVER ->
            {
                final TlsServerKeys keys = (TlsServerKeys) shared(binding, vault,
                    () -> TlsServerKeys.of(provider.get(), binding, vault));
                final TlsServerFactory server = new TlsServerFactory(scratch(), binding, keys, hello, matcher);
                servers.put(binding.id(), server);
                yield server;
            }
            case CLIENT ->
            {
                final TlsClientContexts settings = (TlsClientContexts) shared(binding, vault,
                    () -> TlsClientContexts.of(provider.get(), binding, vault));
                final TlsClientFactory client = new TlsClientFactory(scratch(), binding, settings);
                clients.put(binding.id(), client);
                yield client;
            }
            default -> throw new IllegalArgumentException("bindings." + binding.name() + ": tls kind "
                + binding.kind().yamlName() + " is not supported");
        };
    }

    // one set of contexts per binding and vault for all workers: their session caches and ticket keys are shared
    private Object shared(BindingConfig binding, VaultHandler vault, ContextSupplier supplier)
    {
        final SharedKey shared = new SharedKey(binding, vault);
        sharedKeys.put(binding.id(), shared);
        return contexts.computeIfAbsent(shared, key ->
        {
            try
            {
                return supplier.get();
            }
            catch (GeneralSecurityException ex)
            {
                throw new IllegalArgumentException("bindings." + binding.name() + ": " + ex.getMessage(), ex);
            }
        });
    }

    @Override
    public void detach(BindingConfig binding)
    {
        final SharedKey shared = sharedKeys.remove(binding.id());
        if (shared != null)
        {
            // every worker detaches a binding that a reload changes or removes: its contexts are not made again, and
            // the factories that still hold them keep them as long as they need
            contexts.remove(shared);
        }
        final TlsProxyFactory proxy = proxies.remove(binding.id());
        if (proxy != null)
        {
            proxy.close();
        }
        final TlsServerFactory server = servers.remove(binding.id());
        if (server != null)
        {
            server.close();
        }
        final TlsClientFactory client = clients.remove(binding.id());
        if (client != null)
        {
            client.close();
        }
    }

    @Override
    public void close()
    {
        proxies.values().forEach(TlsProxyFactory::close);
        proxies.clear();
        servers.values().forEach(TlsServerFactory::close);
        servers.clear();
        clients.values().forEach(TlsClientFactory::close);
        clients.clear();
    }

    @FunctionalInterface
    private interface ContextSupplier
    {
        Object get() throws GeneralSecurityException;
    }

    // the vault handler by identity: a reload gives a binding new handlers, hence new contexts
    private record SharedKey(BindingConfig binding, VaultHandler vault)
    {
    }
}
