/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.tls.config.TlsConditionConfig;
import io.zilla.bindings.tls.config.TlsMutual;
import io.zilla.bindings.tls.config.TlsOptionsConfig;
import io.zilla.bindings.tls.engine.JdkTlsEngineProvider;
import io.zilla.bindings.tls.engine.TlsEngineProvider;
import io.zilla.bindings.tls.engine.TlsEngineProviders;
import io.zilla.bindings.tls.stream.TlsBindingContext;
import io.zilla.bindings.tls.stream.TlsMetrics;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.config.PortRanges;
import io.zilla.engine.metrics.Metric;

/**
 * The tls binding type. Kind {@code proxy} routes each TLS connection by its ClientHello (server name, ALPN
 * protocols, port) without decrypting it; kind {@code server} ends TLS with a vault's keys, kind {@code client}
 * starts it. See docs/bindings/tls.md.
 */
public final class TlsBinding implements Binding
{
    public static final String NAME = "tls";

    /** The type id that would tag tls's frame extensions: the type name's {@link String#hashCode()}, as tcp's. */
    public static final int TYPE_ID = NAME.hashCode();

    /**
     * Engine property: how long a proxy waits for a whole ClientHello, and a server or client for a whole handshake,
     * before it closes the connection, in ms.
     */
    public static final String HELLO_TIMEOUT = "zilla.binding.tls.hello.timeout";

    public static final int DEFAULT_HELLO_TIMEOUT = 10_000;

    private static final String SCHEMA = "/io/zilla/specs/tls/schema/tls.schema.json";

    private final EngineConfiguration configuration;
    private final long helloTimeout;
    private volatile TlsEngineProvider provider;
    private final Executor tasks;
    private final Map<Object, Object> contexts = new ConcurrentHashMap<>();

    public TlsBinding(EngineConfiguration configuration)
    {
        this.configuration = configuration;
        this.helloTimeout = configuration.intValue(HELLO_TIMEOUT, DEFAULT_HELLO_TIMEOUT);
        this.tasks = tasks();
    }

    /**
     * The one place that decides which provider makes the SSLEngines of kinds server and client. Chosen when the first
     * such binding attaches, not when the engine starts: a zilla.yaml without them neither loads OpenSSL nor prints the
     * provider's line (zilla validate, echo, kafka), and a forced provider that cannot load still stops that startup.
     */
    private TlsEngineProvider provider()
    {
        TlsEngineProvider chosen = provider;
        if (chosen == null)
        {
            synchronized (this)
            {
                chosen = provider;
                if (chosen == null)
                {
                    chosen = TlsEngineProviders.select(configuration.property(TlsEngineProviders.PROVIDER,
                        TlsEngineProviders.DEFAULT_PROVIDER), JdkTlsEngineProvider::new);
                    provider = chosen;
                }
            }
        }
        return chosen;
    }

    /**
     * The threads that run the handshakes' delegated tasks (key exchange, signatures, certificate checks), as many
     * as there are cores, none while idle: the workers never run them.
     */
    private static Executor tasks()
    {
        final AtomicInteger threads = new AtomicInteger();
        final int cores = Runtime.getRuntime().availableProcessors();
        final ThreadPoolExecutor executor = new ThreadPoolExecutor(cores, cores, 10, TimeUnit.SECONDS,
            new LinkedBlockingQueue<>(), task ->
            {
                final Thread thread = new Thread(task, "zilla-tls-task-" + threads.incrementAndGet());
                thread.setDaemon(true);
                return thread;
            });
        executor.allowCoreThreadTimeOut(true);
        return executor;
    }

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.PROXY, KindConfig.SERVER, KindConfig.CLIENT);
    }

    @Override
    public List<Metric> metrics()
    {
        return TlsMetrics.DECLARED;
    }

    @Override
    public URL schema()
    {
        return TlsBinding.class.getResource(SCHEMA);
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        if (options == null || options.isMissingNode() || options.isNull())
        {
            return null;
        }
        final JsonNode trustcacerts = options.get("trustcacerts");
        return new TlsOptionsConfig(
            text(options.get("version")),
            names(options.get("keys")),
            names(options.get("trust")),
            names(options.get("signers")),
            trustcacerts != null && trustcacerts.isBoolean() ? trustcacerts.booleanValue() : null,
            names(options.get("sni")),
            names(options.get("alpn")),
            TlsMutual.of(text(options.get("mutual"))));
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        return new TlsConditionConfig(
            text(condition.get("authority")),
            text(condition.get("alpn")),
            PortRanges.parse(condition.get("port")));
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new TlsBindingContext(context, helloTimeout, this::provider, tasks, contexts);
    }

    /** How long a proxy waits for a whole ClientHello, in milliseconds. */
    public long helloTimeout()
    {
        return helloTimeout;
    }

    private static String text(JsonNode node)
    {
        return node != null && node.isTextual() ? node.textValue() : null;
    }

    private static List<String> names(JsonNode node)
    {
        final List<String> names = new ArrayList<>();
        if (node != null && node.isArray())
        {
            node.forEach(name -> names.add(name.asText()));
        }
        return names;
    }
}
