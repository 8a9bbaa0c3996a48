/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp;

import java.net.InetAddress;
import java.net.URL;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.tcp.config.TcpCidr;
import io.zilla.bindings.tcp.config.TcpConditionConfig;
import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.bindings.tcp.stream.TcpBindingContext;
import io.zilla.bindings.tcp.stream.TcpListeners;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.ConfigValueException;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.config.PortRanges;

/**
 * The tcp binding type: kind {@code server} listens and opens a stream toward its exit per accepted connection;
 * kind {@code client} opens a connection per stream opened toward it. See docs/bindings/tcp.md.
 */
public final class TcpBinding implements Binding
{
    public static final String NAME = "tcp";

    /**
     * The type id that tags tcp's frame extensions (core::stream::Extension.typeId): the type name's
     * {@link String#hashCode()}, so that any binding can compute it without depending on this module.
     */
    public static final int TYPE_ID = NAME.hashCode();

    /** Engine property: the default connect timeout of tcp clients, in milliseconds. */
    public static final String CONNECT_TIMEOUT = "zilla.binding.tcp.connect.timeout";

    public static final long DEFAULT_CONNECT_TIMEOUT = 5_000L;

    private static final String SCHEMA = "/io/zilla/specs/tcp/schema/tcp.schema.json";

    private final long connectTimeout;
    private final TcpListeners listening = new TcpListeners();
    private final ThreadFactory resolverThreads;
    private ExecutorService resolver;

    public TcpBinding(EngineConfiguration configuration)
    {
        this.connectTimeout = configuration.intValue(CONNECT_TIMEOUT, (int) DEFAULT_CONNECT_TIMEOUT);
        final AtomicInteger threads = new AtomicInteger();
        this.resolverThreads = task ->
        {
            final Thread thread = new Thread(task, "zilla-tcp-resolver-" + threads.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.SERVER, KindConfig.CLIENT);
    }

    /** A client connects to the network: its routes only say where it may connect. */
    @Override
    public boolean hasExits(KindConfig kind)
    {
        return kind != KindConfig.CLIENT;
    }

    @Override
    public URL schema()
    {
        return TcpBinding.class.getResource(SCHEMA);
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        if (options == null || options.isMissingNode() || options.isNull())
        {
            return null;
        }
        final JsonNode host = options.get("host");
        return new TcpOptionsConfig(
            host != null && host.isTextual() ? host.textValue() : null,
            PortRanges.parse(options.get("port")),
            options.path("backlog").asInt(0),
            options.path("nodelay").asBoolean(TcpOptionsConfig.DEFAULT_NODELAY),
            options.path("keepalive").asBoolean(TcpOptionsConfig.DEFAULT_KEEPALIVE),
            options.path("timeout").asLong(0L));
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        final JsonNode cidr = condition.get("cidr");
        final JsonNode authority = condition.get("authority");
        return new TcpConditionConfig(
            cidr != null && cidr.isTextual() ? TcpCidr.parse(cidr.textValue()) : null,
            authority != null && authority.isTextual() ? authority.textValue() : null,
            PortRanges.parse(condition.get("port")));
    }

    /**
     * A client whose options aim it at a listener of a server of the same file is refused: the server would route what
     * it accepts on, possibly to the client again, each lap a new connection (TcpClientFactory refuses it at run time
     * too, for destinations that only streams name).
     */
    @Override
    public List<ConfigValueException> check(BindingConfig binding, NamespaceConfig namespace)
    {
        return binding.kind() == KindConfig.CLIENT ? checkClient(binding, namespace) : checkServer(binding, namespace);
    }

    private List<ConfigValueException> checkClient(BindingConfig binding, NamespaceConfig namespace)
    {
        if (!(binding.options() instanceof TcpOptionsConfig client) || client.host() == null || client.port() == 0)
        {
            return List.of();
        }
        final InetAddress destination = TcpListeners.literal(client.host());
        if (destination == null)
        {
            // a name that only a lookup would resolve: the client checks the address it connects to
            return List.of();
        }
        for (BindingConfig other : namespace.bindings())
        {
            if (NAME.equals(other.type()) && other.kind() == KindConfig.SERVER
                && other.options() instanceof TcpOptionsConfig server && server.host() != null && server.ports() != null
                && Arrays.stream(server.ports()).anyMatch(port -> port == client.port()))
            {
                final InetAddress listener = TcpListeners.literal(server.host());
                if (listener != null && TcpListeners.reaches(listener, destination, TcpListeners.localAddresses()))
                {
                    return List.of(new ConfigValueException("options.port", "connects to this zilla's own listener: bindings."
                        + other.name() + " listens on " + server.host() + ":" + client.port()
                        + ", and a zilla that connects to itself loops"));
                }
            }
        }
        return List.of();
    }

    /**
     * Two servers of one file on the same port: both would join the port's reuse-port group (the engine's own listeners
     * share it) and the kernel would split the connections between them. The second one is refused.
     */
    private List<ConfigValueException> checkServer(BindingConfig binding, NamespaceConfig namespace)
    {
        if (!(binding.options() instanceof TcpOptionsConfig server) || server.host() == null || server.ports() == null)
        {
            return List.of();
        }
        for (BindingConfig other : namespace.bindings())
        {
            if (other.id() == binding.id())
            {
                // only the servers before it: the first of two keeps the port
                break;
            }
            if (NAME.equals(other.type()) && other.kind() == KindConfig.SERVER
                && other.options() instanceof TcpOptionsConfig first && first.host() != null && first.ports() != null
                && overlap(first.host(), server.host()))
            {
                for (int port : server.ports())
                {
                    if (Arrays.stream(first.ports()).anyMatch(taken -> taken == port))
                    {
                        return List.of(new ConfigValueException("options.port", "port " + port + " is bindings."
                            + other.name() + "'s already (" + first.host() + "): two servers on one port would split its "
                            + "connections"));
                    }
                }
            }
        }
        return List.of();
    }

    /** Whether listeners on both hosts would take the same connections: the same address, or one is the wildcard. */
    private static boolean overlap(String host, String other)
    {
        final InetAddress address = TcpListeners.literal(host);
        final InetAddress otherAddress = TcpListeners.literal(other);
        return address == null || otherAddress == null
            ? host.equalsIgnoreCase(other)
            : address.equals(otherAddress) || address.isAnyLocalAddress() || otherAddress.isAnyLocalAddress();
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new TcpBindingContext(context, TYPE_ID, connectTimeout, this::resolver, listening);
    }

    /** The connect timeout that a client without a {@code timeout} option uses, in milliseconds. */
    public long connectTimeout()
    {
        return connectTimeout;
    }

    // host names are resolved off the workers (a lookup may block for seconds); the threads start on first use
    private synchronized ExecutorService resolver()
    {
        if (resolver == null)
        {
            // idle threads exit: an engine that stops, or never looks a name up, keeps none
            final ThreadPoolExecutor threads = new ThreadPoolExecutor(2, 2, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                resolverThreads);
            threads.allowCoreThreadTimeOut(true);
            resolver = threads;
        }
        return resolver;
    }
}
