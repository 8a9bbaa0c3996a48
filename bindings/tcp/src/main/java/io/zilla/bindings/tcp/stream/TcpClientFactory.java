/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static io.zilla.engine.binding.signal.Signaler.NO_CANCEL_ID;
import static java.nio.channels.SelectionKey.OP_CONNECT;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.nio.channels.SocketChannel;
import java.nio.channels.UnresolvedAddressException;
import java.nio.channels.UnsupportedAddressTypeException;
import java.util.ArrayList;
import java.util.Locale;

import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.poller.PollerKey;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.tcp.types.stream.TcpError;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Kind {@code client}: each stream opened toward it becomes a connection, to the host and port of the options;
 * where the options name no host or no port, the destination of the stream's TcpBeginEx says it. The initial
 * direction carries what goes to the peer, the reply what the peer sends back. A connection that cannot be made
 * within the timeout, or at all, resets the stream with a TcpResetEx that says why, and reports a
 * {@code tcp.connect.failed} event.
 */
public final class TcpClientFactory extends TcpStreamFactory
{
    private static final int SIGNAL_CONNECT_TIMEOUT = 1;

    private final Long2ObjectHashMap<TcpClientBinding> clients = new Long2ObjectHashMap<>();
    private final TcpRouteMatcher matcher = new TcpRouteMatcher();
    private final TcpResolver resolver;
    private final long defaultTimeout;
    private final TcpListeners listening;

    /** @param listening the addresses this engine's tcp servers listen on, which no client may connect to */
    public TcpClientFactory(EngineContext context, int typeId, TcpResolver resolver, long defaultTimeout, TcpListeners listening)
    {
        super(context, typeId);
        this.resolver = resolver;
        this.defaultTimeout = defaultTimeout;
        this.listening = listening;
    }

    public BindingHandler attach(BindingConfig binding)
    {
        final TcpClientBinding client = new TcpClientBinding(binding);
        clients.put(binding.id(), client);
        return client::newStream;
    }

    public void detach(BindingConfig binding)
    {
        final TcpClientBinding client = clients.remove(binding.id());
        if (client != null)
        {
            client.close();
        }
    }

    public void close()
    {
        clients.values().forEach(TcpClientBinding::close);
        clients.clear();
    }

    private static TcpError error(IOException ex)
    {
        if (ex instanceof ConnectException)
        {
            return TcpError.REFUSED;
        }
        if (ex instanceof NoRouteToHostException)
        {
            return TcpError.UNREACHABLE;
        }
        return TcpError.IO;
    }

    /** One client binding on this worker and its connections. */
    private final class TcpClientBinding
    {
        private final BindingConfig binding;
        private final TcpOptionsConfig options;
        private final TcpCounters counters;
        private final long timeout;
        private final Long2ObjectHashMap<TcpClient> connections = new Long2ObjectHashMap<>();

        TcpClientBinding(BindingConfig binding)
        {
            this.binding = binding;
            this.options = binding.options() instanceof TcpOptionsConfig tcp ? tcp : TcpOptionsConfig.DEFAULTS;
            this.counters = new TcpCounters(context, binding.id());
            this.timeout = options.timeout() > 0 ? options.timeout() : defaultTimeout;
        }

        private MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
        {
            final BeginFW begin = msgTypeId == BeginFW.TYPE_ID ? beginRO.tryWrap(buffer, index, index + length) : null;
            if (begin == null)
            {
                return null;
            }
            // the options name a fixed peer and win; what they leave open, the stream's TcpBeginEx may name. A Begin
            // from a tcp server carries the address it accepted on as its destination: used as a target, that
            // would connect a server -> client chain back to itself
            String host = options.host();
            int port = options.port();
            if ((host == null || port == 0) && tcpBeginEx(begin.extension()))
            {
                host = host != null ? host : tcpBeginExRO.destinationHost().asString();
                port = port != 0 ? port : tcpBeginExRO.destinationPort();
            }
            final TcpClient client = new TcpClient(this, sender, begin.originId(), begin.routedId(), begin.streamId());
            connections.put(begin.streamId(), client);
            client.onAppOpen(begin, host, port);
            return client;
        }

        void close()
        {
            final long traceId = context.supplyTraceId();
            new ArrayList<>(connections.values()).forEach(client -> client.doClose(traceId));
            connections.clear();
        }
    }

    /**
     * One stream and its connection. The app opens the stream: its initial direction writes (app to peer), its
     * reply reads (peer to app).
     */
    private final class TcpClient extends TcpConnection
    {
        private final TcpClientBinding client;

        private String host;
        private int port;
        private long timeoutId = NO_CANCEL_ID;

        TcpClient(TcpClientBinding client, MessageConsumer app, long originId, long routedId, long initialId)
        {
            super(TcpClientFactory.this, client.binding, client.counters, originId, routedId,
                TcpClientFactory.this.context.supplyReplyId(initialId), initialId);
            this.client = client;
            this.app = app;
        }

        /** The stream's Begin, from {@link TcpClientBinding#newStream}: it opens the write direction. */
        private void onAppOpen(BeginFW begin, String host, int port)
        {
            final long traceId = begin.traceId();
            this.host = host;
            this.port = port;
            openWrite(begin.sequence());
            if (host == null || host.isEmpty() || port <= 0)
            {
                onNetConnectFailed(traceId, TcpError.UNRESOLVED,
                    "no destination: the stream names none and the binding has no host and port options");
                return;
            }
            try
            {
                resolver.resolve(host, (address, failure) -> onResolved(traceId, address, failure));
            }
            catch (IOException ex)
            {
                onNetConnectFailed(traceId, TcpError.IO, "cannot resolve " + host + ": " + ex.getMessage());
            }
        }

        private void onResolved(long traceId, InetAddress address, String failure)
        {
            if (closed)
            {
                // the app gave up on the stream while the name was being looked up
                return;
            }
            try
            {
                if (address == null)
                {
                    onNetConnectFailed(traceId, TcpError.UNRESOLVED, failure);
                }
                else if (!client.binding.routes().isEmpty()
                    && client.binding.resolve(matcher.with(address.getAddress(), host, port)) == null)
                {
                    onNetConnectFailed(traceId, TcpError.REFUSED, "no route to " + host + ":" + port);
                }
                else if (listening.isListening(address, port))
                {
                    // this zilla itself: its server would route the connection on, and possibly here again, each lap a
                    // new connection, until no file descriptor is left
                    onNetConnectFailed(traceId, TcpError.REFUSED, "refused to connect to " + host + ":" + port
                        + ": this zilla listens there itself, and connecting to itself would loop");
                }
                else
                {
                    doNetConnect(traceId, new InetSocketAddress(address, port));
                }
            }
            catch (RuntimeException ex)
            {
                onAppFault(traceId, "fault: " + ex);
            }
        }

        private void doNetConnect(long traceId, InetSocketAddress remote)
        {
            try
            {
                network = SocketChannel.open();
                configure(network, client.options);
                registerNetwork().handler(OP_CONNECT, this::onNetConnectableSafely);
                if (network.connect(remote))
                {
                    onNetConnected(traceId);
                }
                else
                {
                    networkKey.register(OP_CONNECT);
                    timeoutId = context.signaler().signalAt(System.currentTimeMillis() + client.timeout, originId, routedId,
                        readId, traceId, SIGNAL_CONNECT_TIMEOUT, 0);
                }
            }
            catch (IOException ex)
            {
                onNetConnectFailed(traceId, error(ex), ex.getMessage());
            }
            catch (UnresolvedAddressException | UnsupportedAddressTypeException ex)
            {
                onNetConnectFailed(traceId, TcpError.UNRESOLVED, "cannot connect to " + remote);
            }
        }

        private int onNetConnectable(PollerKey key)
        {
            final long traceId = context.supplyTraceId();
            try
            {
                if (network.finishConnect())
                {
                    key.clear(OP_CONNECT);
                    onNetConnected(traceId);
                }
            }
            catch (IOException ex)
            {
                onNetConnectFailed(traceId, error(ex), ex.getMessage());
            }
            return 1;
        }

        private int onNetConnectableSafely(PollerKey key)
        {
            try
            {
                return onNetConnectable(key);
            }
            catch (RuntimeException ex)
            {
                // a fault in this connection ends this connection, never the worker
                onAppFault(context.supplyTraceId(), "fault: " + ex);
                return 1;
            }
        }

        private void onNetConnected(long traceId)
        {
            cancelTimeout();
            connected = true;
            client.counters.opened.incrementRelease();
            client.counters.active.incrementRelease();

            InetSocketAddress local;
            InetSocketAddress remote;
            try
            {
                local = (InetSocketAddress) network.getLocalAddress();
                remote = (InetSocketAddress) network.getRemoteAddress();
            }
            catch (IOException ex)
            {
                onNetFailed(traceId);
                return;
            }
            doAppReadBegin(traceId, local, remote);

            if (TcpState.writeClosing(state))
            {
                // the app ended its direction before the connection was up
                doNetShutdownOutput(traceId);
            }
            else
            {
                grantWriteCredit(traceId);
            }
        }

        private void onNetConnectFailed(long traceId, TcpError error, String reason)
        {
            final String detail = "bindings." + client.binding.name() + ": " + host + ":" + port + ": "
                + (reason != null ? reason : error.name().toLowerCase(Locale.ROOT));
            client.counters.failed.incrementRelease();
            context.event(routedId, traceId, "tcp.connect.failed", detail);
            doAppReset(traceId, error, detail);
            doAppAbort(traceId);
            cleanup(false);
        }

        @Override
        protected void onAppBegin(BeginFW begin)
        {
            // the stream's one Begin came to newStream
        }

        @Override
        protected void onAppSignal(SignalFW signal)
        {
            if (signal != null && signal.signalId() == SIGNAL_CONNECT_TIMEOUT && timeoutId != NO_CANCEL_ID && !connected
                && !closed)
            {
                timeoutId = NO_CANCEL_ID;
                onNetConnectFailed(signal.traceId(), TcpError.TIMEOUT,
                    "connect timed out after " + client.timeout + " ms");
            }
        }

        @Override
        protected void onClosed()
        {
            cancelTimeout();
            if (connected)
            {
                client.counters.active.decrementRelease();
            }
            // keyed by the stream's initial id: the write direction of a client's stream
            client.connections.remove(writeId);
        }

        private void cancelTimeout()
        {
            if (timeoutId != NO_CANCEL_ID)
            {
                context.signaler().cancel(timeoutId);
                timeoutId = NO_CANCEL_ID;
            }
        }
    }
}
