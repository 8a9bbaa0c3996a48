/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static java.nio.channels.SelectionKey.OP_ACCEPT;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.poller.PollerKey;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.SignalFW;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Kind {@code server}: listens on each port of its options and, per accepted connection, opens a stream toward
 * the exit of the first route that matches. The stream's initial direction carries what the peer sends, its reply
 * what goes back to the peer.
 * <p>
 * With {@code SO_REUSEPORT} every worker listens on the same ports and the kernel spreads the connections over
 * them; without it only worker 0 listens.
 */
public final class TcpServerFactory extends TcpStreamFactory
{
    /** Connections accepted per readiness of a listener, so that a burst of connects cannot starve the worker. */
    private static final int MAX_ACCEPTS = 64;
    /**
     * The accept queue asked for when the options set none: the largest, which the kernel caps at its own maximum
     * (net.core.somaxconn). The JDK's own default for 0 is 50, which a burst of connections overflows; the kernel then
     * drops their handshakes or, with SYN cookies, resets connections that clients already think are open.
     */
    private static final int SYSTEM_BACKLOG = Integer.MAX_VALUE;

    private static final boolean REUSE_PORT = supportsReusePort();

    private static final BindingHandler NO_STREAMS = (msgTypeId, buffer, index, length, sender) -> null;

    private final Long2ObjectHashMap<TcpServerBinding> servers = new Long2ObjectHashMap<>();
    private final TcpRouteMatcher matcher = new TcpRouteMatcher();
    private final TcpListeners listening;

    /** @param listening the addresses every worker's servers listen on, shared by the workers */
    public TcpServerFactory(EngineContext context, int typeId, TcpListeners listening)
    {
        super(context, typeId);
        this.listening = listening;
    }

    /** Starts listening; streams are only opened by a server, so nothing may open one toward it. */
    public BindingHandler attach(BindingConfig binding)
    {
        final TcpServerBinding server = new TcpServerBinding(binding);
        server.listen();
        servers.put(binding.id(), server);
        return NO_STREAMS;
    }

    public void detach(BindingConfig binding)
    {
        final TcpServerBinding server = servers.remove(binding.id());
        if (server != null)
        {
            server.close();
        }
    }

    public void close()
    {
        servers.values().forEach(TcpServerBinding::close);
        servers.clear();
    }

    private static boolean supportsReusePort()
    {
        try (ServerSocketChannel probe = ServerSocketChannel.open())
        {
            return probe.supportedOptions().contains(StandardSocketOptions.SO_REUSEPORT);
        }
        catch (IOException | UnsupportedOperationException ex)
        {
            return false;
        }
    }

    /** One server binding on this worker: its listening sockets and its connections. */
    private final class TcpServerBinding
    {
        private final BindingConfig binding;
        private final TcpOptionsConfig options;
        private final TcpCounters counters;
        private final List<PollerKey> listeners = new ArrayList<>();
        private final List<InetSocketAddress> addresses = new ArrayList<>();
        private final Long2ObjectHashMap<TcpServer> connections = new Long2ObjectHashMap<>();

        private boolean acceptPaused;

        TcpServerBinding(BindingConfig binding)
        {
            this.binding = binding;
            this.options = binding.options() instanceof TcpOptionsConfig tcp ? tcp : TcpOptionsConfig.DEFAULTS;
            this.counters = new TcpCounters(context, binding.id());
        }

        void listen()
        {
            if (options.host() == null || options.ports() == null)
            {
                throw new IllegalArgumentException("bindings." + binding.name() + ": a tcp server needs options host and port");
            }
            if (!REUSE_PORT && context.index() != 0)
            {
                // without SO_REUSEPORT the workers cannot share a port: worker 0 accepts every connection
                return;
            }
            for (int port : options.ports())
            {
                final InetSocketAddress address = new InetSocketAddress(options.host(), port);
                if (address.isUnresolved())
                {
                    throw onListenFailed(address, new IOException("cannot resolve host " + options.host()));
                }
                final ServerSocketChannel listener;
                try
                {
                    listener = listening.listen(address, options.backlog() > 0 ? options.backlog() : SYSTEM_BACKLOG, REUSE_PORT);
                }
                catch (IOException ex)
                {
                    throw onListenFailed(address, ex);
                }
                catch (RuntimeException ex)
                {
                    // the ports listened on before this one are closed too, and released
                    throw onListenFailed(address, new IOException(ex.toString(), ex));
                }
                addresses.add(address);
                try
                {
                    listener.configureBlocking(false);
                    final PollerKey key = context.supplyPollerKey(listener);
                    key.handler(OP_ACCEPT, this::onNetAcceptable);
                    key.register(OP_ACCEPT);
                    listeners.add(key);
                }
                catch (IOException | RuntimeException ex)
                {
                    // not yet among the listeners that close() closes; its address is, and close() releases it
                    closeQuietly(listener);
                    throw onListenFailed(address, ex instanceof IOException io ? io : new IOException(ex.toString(), ex));
                }
            }
        }

        void close()
        {
            for (PollerKey key : listeners)
            {
                key.cancel();
                closeQuietly((ServerSocketChannel) key.channel());
            }
            listeners.clear();
            addresses.forEach(listening::closed);
            addresses.clear();
            final long traceId = context.supplyTraceId();
            new ArrayList<>(connections.values()).forEach(connection -> connection.doClose(traceId));
            connections.clear();
        }

        private IllegalStateException onListenFailed(InetSocketAddress address, IOException ex)
        {
            // a server that cannot listen must stop the engine from starting: close what this binding opened
            close();
            final String detail = ex instanceof TcpListeners.PortInUseException
                ? "bindings." + binding.name() + ": " + ex.getMessage()
                : "bindings." + binding.name() + ": cannot listen on " + address + ": " + ex.getMessage();
            context.event(binding.id(), context.supplyTraceId(), "tcp.listen.failed", detail);
            return new IllegalStateException(detail, ex);
        }

        private int onNetAcceptable(PollerKey key)
        {
            final ServerSocketChannel listener = (ServerSocketChannel) key.channel();
            int accepted = 0;
            while (accepted < MAX_ACCEPTS)
            {
                final SocketChannel channel;
                try
                {
                    channel = listener.accept();
                }
                catch (IOException ex)
                {
                    onAcceptFailed(ex);
                    break;
                }
                if (channel == null)
                {
                    break;
                }
                accepted++;
                try
                {
                    onNetAccepted(channel);
                }
                catch (RuntimeException ex)
                {
                    // a fault with one connection closes that connection, never the listener
                    closeNet(channel, true);
                    context.event(binding.id(), context.supplyTraceId(), "tcp.stream.fault",
                        "bindings." + binding.name() + ": fault: " + ex);
                }
            }
            return accepted;
        }

        private void onAcceptFailed(IOException ex)
        {
            context.event(binding.id(), context.supplyTraceId(), "tcp.accept.failed",
                "bindings." + binding.name() + ": " + ex.getMessage());
            // out of file descriptors, most likely: stop accepting until one of this binding's connections closes,
            // rather than spinning on a listener that stays ready
            if (!connections.isEmpty())
            {
                acceptPaused = true;
                listeners.forEach(listener -> listener.clear(OP_ACCEPT));
            }
        }

        private void onNetAccepted(SocketChannel channel)
        {
            final long traceId = context.supplyTraceId();
            final InetSocketAddress local;
            final InetSocketAddress remote;
            try
            {
                configure(channel, options);
                local = (InetSocketAddress) channel.getLocalAddress();
                remote = (InetSocketAddress) channel.getRemoteAddress();
            }
            catch (IOException ex)
            {
                // the peer went away between connect and accept
                counters.errors.incrementRelease();
                closeNet(channel, false);
                return;
            }

            final RouteConfig route = binding.resolve(
                matcher.with(remote.getAddress().getAddress(), local.getHostString(), local.getPort()));
            if (route == null)
            {
                onNetRefused(channel, traceId, remote, local, "no route");
                return;
            }

            final long initialId = context.supplyInitialId(route.exitId());
            final TcpServer server = new TcpServer(this, channel, route.exitId(), initialId);
            if (server.doAppBegin(traceId, remote, local))
            {
                connections.put(initialId, server);
                counters.opened.incrementRelease();
                counters.active.incrementRelease();
            }
            else
            {
                onNetRefused(channel, traceId, remote, local, "exit " + route.exit() + " is not a binding");
            }
        }

        private void onNetRefused(SocketChannel channel, long traceId, InetSocketAddress remote, InetSocketAddress local,
            String reason)
        {
            counters.refused.incrementRelease();
            closeNet(channel, true);
            context.event(binding.id(), traceId, "tcp.connection.refused",
                "bindings." + binding.name() + ": " + remote + " -> " + local + ": " + reason);
        }

        private void onConnectionClosed(TcpServer server)
        {
            // keyed by the stream's initial id: the read direction of a server's stream
            connections.remove(server.readId);
            counters.active.decrementRelease();
            if (acceptPaused)
            {
                acceptPaused = false;
                listeners.forEach(listener -> listener.register(OP_ACCEPT));
            }
        }

        private void closeQuietly(ServerSocketChannel listener)
        {
            try
            {
                listener.close();
            }
            catch (IOException ex)
            {
                // nothing is listening any more either way
            }
        }
    }

    /**
     * One accepted connection and its stream. The server opens the stream: its initial direction reads (peer to
     * app), its reply writes (app to peer).
     */
    private final class TcpServer extends TcpConnection
    {
        private final TcpServerBinding server;

        TcpServer(TcpServerBinding server, SocketChannel network, long routedId, long initialId)
        {
            super(TcpServerFactory.this, server.binding, server.counters, server.binding.id(), routedId, initialId,
                TcpServerFactory.this.context.supplyReplyId(initialId));
            this.server = server;
            this.network = network;
            this.connected = true;
        }

        private boolean doAppBegin(long traceId, InetSocketAddress remote, InetSocketAddress local)
        {
            app = newStream(this, originId, routedId, readId, traceId, remote, local);
            if (app == null)
            {
                return false;
            }
            state |= TcpState.READ_OPENING;
            registerNetwork();
            return true;
        }

        /** The app's reply Begin: it opens the write direction. */
        @Override
        protected void onAppBegin(BeginFW begin)
        {
            if (begin == null || TcpState.writeOpening(state) || closed)
            {
                final long traceId = begin != null ? begin.traceId() : context.supplyTraceId();
                if (closed)
                {
                    // the connection is gone already: refuse the late reply
                    doReset(app, originId, routedId, writeId, 0L, 0L, 0, traceId);
                    return;
                }
                onAppFault(traceId, "bad reply Begin");
                return;
            }
            openWrite(begin.sequence());
            grantWriteCredit(begin.traceId());
        }

        @Override
        protected void onAppSignal(SignalFW signal)
        {
            // the server sets no timers
        }

        @Override
        protected void onClosed()
        {
            server.onConnectionClosed(this);
        }
    }
}
