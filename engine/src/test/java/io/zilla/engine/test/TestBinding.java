/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.net.URL;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;

/**
 * The {@code test} binding: application-side streams a test drives and observes frame by frame. Kind
 * {@code client} opens streams to its exit when the test asks ({@link TestClient}); kind {@code server}
 * accepts streams, records them, and answers as the test asks ({@link TestServer}). Look them up by binding
 * name once the engine has started: worker 0's, or any worker's by its index (a test of several workers).
 */
public final class TestBinding implements Binding
{
    public static final String TYPE = "test";

    private static final Map<String, TestClient> CLIENTS = new ConcurrentHashMap<>();
    private static final Map<String, TestServer> SERVERS = new ConcurrentHashMap<>();

    public static TestClient client(String bindingName)
    {
        return client(bindingName, 0);
    }

    /** The client of the binding on worker {@code worker}: its streams start on that worker. */
    public static TestClient client(String bindingName, int worker)
    {
        return CLIENTS.get(key(bindingName, worker));
    }

    public static TestServer server(String bindingName)
    {
        return server(bindingName, 0);
    }

    /** The server of the binding on worker {@code worker}: the streams opened on that worker reach it. */
    public static TestServer server(String bindingName, int worker)
    {
        return SERVERS.get(key(bindingName, worker));
    }

    private static String key(String bindingName, int worker)
    {
        return bindingName + "@" + worker;
    }

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.CLIENT, KindConfig.SERVER);
    }

    @Override
    public URL schema()
    {
        return TestBinding.class.getResource("test.schema.json");
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                final BindingHandler handler;
                if (binding.kind() == KindConfig.CLIENT)
                {
                    final TestClient client = new TestClient(context, binding);
                    CLIENTS.put(key(binding.name(), context.index()), client);
                    handler = client;
                }
                else
                {
                    final TestServer server = new TestServer(context, binding);
                    SERVERS.put(key(binding.name(), context.index()), server);
                    handler = server;
                }
                return handler;
            }

            @Override
            public void detach(BindingConfig binding)
            {
                final String key = key(binding.name(), context.index());
                final TestClient client = CLIENTS.get(key);
                if (client != null && client.context() == context)
                {
                    CLIENTS.remove(key);
                    client.close();
                }
                final TestServer server = SERVERS.get(key);
                if (server != null && server.context() == context)
                {
                    SERVERS.remove(key);
                }
            }
        };
    }
}
