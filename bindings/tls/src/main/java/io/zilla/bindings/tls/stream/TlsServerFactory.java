/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.util.ArrayList;
import java.util.List;
import javax.net.ssl.SSLEngine;

import io.zilla.bindings.tls.TlsBinding;
import io.zilla.bindings.tls.config.TlsOptionsConfig;
import io.zilla.bindings.tls.engine.TlsServerContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.HostPattern;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import io.zilla.specs.tls.types.stream.TlsBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The connections of one tls server binding on one worker. Each stream from the tcp server is one TLS connection.
 * Its ClientHello is read first, before there is an engine, by {@link TlsClientHello}: its server name chooses the
 * key ({@link TlsServerKeys}) and, with the protocols it offers and the port, the route and the ALPN protocol to
 * select; the engine is then made from that key's context and given the held bytes. Once the handshake is done a
 * stream is opened to the route's exit with a {@code TlsBeginEx}, and {@link TlsConnection} carries the rest.
 */
final class TlsServerFactory implements BindingHandler
{
    private static final int TCP_TYPE_ID = "tcp".hashCode();

    // alert descriptions, RFC 8446 6.2

    private final BeginFW beginRO = new BeginFW();
    private final TcpBeginExFW tcpBeginExRO = new TcpBeginExFW();
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final TlsBeginExFW.Builder tlsBeginExRW = new TlsBeginExFW.Builder();
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[1024]);
    private final MutableDirectBuffer alertBuffer = new UnsafeBuffer(new byte[TlsClientHello.RECORD_HEADER + 2]);

    private final TlsScratch scratch;
    private final BindingConfig binding;
    private final TlsServerKeys keys;
    private final TlsOptionsConfig options;
    private final TlsClientHello hello;
    private final TlsRouteMatcher matcher;
    private final TlsHandshakeCounters counters;
    private final int helloWindow;
    private final Long2ObjectHashMap<TlsServer> connections = new Long2ObjectHashMap<>();

    TlsServerFactory(TlsScratch scratch, BindingConfig binding, TlsServerKeys keys, TlsClientHello hello,
        TlsRouteMatcher matcher)
    {
        this.scratch = scratch;
        this.binding = binding;
        this.keys = keys;
        this.options = binding.options() instanceof TlsOptionsConfig tls ? tls
            : new TlsOptionsConfig(null, null, null, null, null, null, null, null);
        this.hello = hello;
        this.matcher = matcher;
        this.counters = new TlsHandshakeCounters(scratch.context, binding.id());
        this.helloWindow = Math.min(scratch.bufferPool.slotCapacity(),
            TlsClientHello.MAX_HANDSHAKE + 4 * TlsClientHello.RECORD_HEADER);
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final TlsServer server = new TlsServer();
        server.net.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
        connections.put(begin.streamId(), server);
        return server::onNetMessage;
    }

    void close()
    {
        final long traceId = scratch.context.supplyTraceId();
        for (TlsServer server : new ArrayList<>(connections.values()))
        {
            server.doCloseAll(traceId);
        }
    }

    private final class TlsServer extends TlsConnection
    {
        private int helloNeeded;
        private String sourceHost;
        private int sourcePort;
        private String destinationHost;
        private int destinationPort;
        private String serverName;
        private long exitId;

        TlsServer()
        {
            super(TlsServerFactory.this.scratch, TlsServerFactory.this.binding, TlsServerFactory.this.counters);
        }

        @Override
        void onNetBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            net.onInBegin(begin);
            final OctetsFW extension = begin.extension();
            if (extension != null && extension.sizeof() > 0
                && tcpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) != null
                && tcpBeginExRO.typeId() == TCP_TYPE_ID)
            {
                // the exit learns the connection's addresses from the TlsBeginEx, and the port feeds the routes
                sourceHost = tcpBeginExRO.sourceHost().asString();
                sourcePort = tcpBeginExRO.sourcePort();
                destinationHost = tcpBeginExRO.destinationHost().asString();
                destinationPort = tcpBeginExRO.destinationPort();
            }
            armTimer(traceId);
            net.doOutBegin(traceId, null, 0, 0);
            doNetWindow(traceId);
        }

        @Override
        int netWindowBeforeEngine()
        {
            return helloWindow;
        }

        @Override
        void onNetBytesBeforeEngine(long traceId)
        {
            final int size = decodeLimit - decodeOffset;
            final MutableDirectBuffer held = scratch.bufferPool.buffer(decodeSlot);
            final int status = size >= helloNeeded ? hello.scan(held, decodeOffset, decodeLimit) : TlsClientHello.INCOMPLETE;
            if (size >= helloNeeded && status == TlsClientHello.INCOMPLETE)
            {
                helloNeeded = hello.needed();
            }
            switch (status)
            {
                case TlsClientHello.COMPLETE -> onHello(traceId);
                case TlsClientHello.INCOMPLETE ->
                {
                    if (size >= helloWindow)
                    {
                        onRejected(traceId, TlsClientHello.ALERT_HANDSHAKE_FAILURE,
                            "no whole ClientHello in the first " + helloWindow + " bytes");
                    }
                }
                default -> onRejected(traceId, TlsClientHello.alertFor(status), hello.reason());
            }
        }

        private void onHello(long traceId)
        {
            serverName = hello.serverName();
            final List<String> offered = hello.protocols();
            // options.sni restricts the names it answers for: a ClientHello that names none is not among them either
            if (!options.sni().isEmpty() && (serverName == null || !answersFor(serverName)))
            {
                onUnrouted(traceId, serverName != null
                    ? "server name " + serverName + " is not among " + options.sni()
                    : "no server name, and it answers only " + options.sni());
                return;
            }

            // the first of our protocols that the client offers and that a route takes; else a route without one
            RouteConfig route = null;
            String protocol = null;
            for (String candidate : options.alpn())
            {
                if (offered.contains(candidate))
                {
                    route = binding.resolve(matcher.with(serverName, List.of(candidate), destinationPort));
                    if (route != null)
                    {
                        protocol = candidate;
                        break;
                    }
                }
            }
            if (route == null)
            {
                route = binding.resolve(matcher.with(serverName, List.of(), destinationPort));
            }
            if (route == null)
            {
                onUnrouted(traceId, "no route for server name " + serverName + ", alpn " + offered + ", port "
                    + destinationPort);
                return;
            }

            exitId = route.exitId();
            final TlsServerContext tls = keys.select(serverName);
            final SSLEngine engine = tls.newEngine(protocol);
            startEngine(traceId, engine);
            doNetWindow(traceId);
        }

        private boolean answersFor(String name)
        {
            boolean answers = false;
            for (String pattern : options.sni())
            {
                answers |= HostPattern.matches(pattern.toLowerCase(java.util.Locale.ROOT), name);
            }
            return answers;
        }

        private void onUnrouted(long traceId, String why)
        {
            counters.unrouted.increment();
            scratch.context.event(binding.id(), traceId, "tls.route.missing", "bindings." + binding.name() + ": " + why
                + ", connection closed");
            doAlert(traceId, serverName != null
                ? TlsClientHello.ALERT_UNRECOGNIZED_NAME : TlsClientHello.ALERT_HANDSHAKE_FAILURE);
        }

        private void onRejected(long traceId, int description, String reason)
        {
            counters.rejected.increment();
            scratch.context.event(binding.id(), traceId, "tls.hello.rejected", "bindings." + binding.name() + ": "
                + reason + ", connection closed");
            doAlert(traceId, description);
        }

        private void doAlert(long traceId, int description)
        {
            final int size = TlsClientHello.alert(alertBuffer, 0, description);
            refuse(traceId, alertBuffer, size);
        }

        @Override
        void onHandshakeDone(long traceId)
        {
            final String protocol = engine.getApplicationProtocol();
            final TlsBeginExFW beginEx = tlsBeginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(TlsBinding.TYPE_ID)
                .authority(serverName)
                .alpn(protocol != null && !protocol.isEmpty() ? protocol : null)
                .sourceHost(sourceHost)
                .sourcePort(sourcePort)
                .destinationHost(destinationHost)
                .destinationPort(destinationPort)
                .build();
            final long initialId = scratch.context.supplyInitialId(exitId);
            final long replyId = scratch.context.supplyReplyId(initialId);
            final MutableDirectBuffer writeBuffer = scratch.context.writeBuffer();
            final BeginFW begin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(net.routedId).routedId(exitId).streamId(initialId)
                .sequence(0).acknowledge(0).maximum(0)
                .traceId(traceId)
                .extension(beginEx.buffer(), beginEx.offset(), beginEx.sizeof())
                .build();
            final MessageConsumer exit = scratch.context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(),
                begin.sizeof(), this::onAppMessage);
            app.set(exit, net.routedId, exitId, replyId, initialId);
            if (exit == null)
            {
                doCloseAll(traceId);
            }
            else
            {
                app.outOpened = true;
            }
        }

        @Override
        void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            app.onInBegin(begin);
            doAppWindow(traceId);
        }

        @Override
        void onHandshakeFailed(long traceId, String reason)
        {
            // the exit was never opened: the alert (or the close) is all the client gets
        }

        @Override
        void onClosed()
        {
            connections.remove(net.inboundId);
        }
    }
}
