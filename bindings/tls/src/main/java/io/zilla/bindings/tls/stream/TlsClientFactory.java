/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import java.util.ArrayList;

import io.zilla.bindings.tls.TlsBinding;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
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
 * The connections of one tls client binding on one worker. Each stream from an app is one TLS connection: a stream
 * is opened to the exit (a tcp client) with the app's Begin extension passed on (a {@code TcpBeginEx} there says
 * where to connect), the engine's ClientHello goes out as soon as that connection takes it, and the app's Begin is
 * answered once the handshake is done, with a {@code TlsBeginEx} giving the negotiated protocol. A handshake that
 * fails resets the app's stream.
 * <p>
 * The server name sent (SNI, and checked against the server's certificate) is {@code options.sni}'s when given, so
 * that what the operator wrote wins; else the host of the app's {@code TcpBeginEx} destination when it is a name
 * (not an address literal), as a kafka client connecting to a broker by its advertised name needs.
 */
final class TlsClientFactory implements BindingHandler
{
    private static final int TCP_TYPE_ID = "tcp".hashCode();

    private final BeginFW beginRO = new BeginFW();
    private final TcpBeginExFW tcpBeginExRO = new TcpBeginExFW();
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final TlsBeginExFW.Builder tlsBeginExRW = new TlsBeginExFW.Builder();
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[1024]);

    private final TlsScratch scratch;
    private final BindingConfig binding;
    private final TlsClientContexts contexts;
    private final TlsRouteMatcher matcher = new TlsRouteMatcher();
    private final TlsHandshakeCounters counters;
    private final Long2ObjectHashMap<TlsClient> connections = new Long2ObjectHashMap<>();

    TlsClientFactory(TlsScratch scratch, BindingConfig binding, TlsClientContexts contexts)
    {
        this.scratch = scratch;
        this.binding = binding;
        this.contexts = contexts;
        this.counters = new TlsHandshakeCounters(scratch.context, binding.id());
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final TlsClient client = new TlsClient();
        client.app.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
        connections.put(begin.streamId(), client);
        return client::onAppMessage;
    }

    void close()
    {
        final long traceId = scratch.context.supplyTraceId();
        for (TlsClient client : new ArrayList<>(connections.values()))
        {
            client.doCloseAll(traceId);
        }
    }

    private final class TlsClient extends TlsConnection
    {
        private String serverName;

        TlsClient()
        {
            super(TlsClientFactory.this.scratch, TlsClientFactory.this.binding, TlsClientFactory.this.counters);
        }

        @Override
        void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            app.onInBegin(begin);
            int port = 0;
            String host = null;
            final OctetsFW extension = begin.extension();
            if (extension != null && extension.sizeof() > 0
                && tcpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) != null
                && tcpBeginExRO.typeId() == TCP_TYPE_ID)
            {
                host = tcpBeginExRO.destinationHost().asString();
                port = tcpBeginExRO.destinationPort();
            }
            serverName = contexts.serverName() != null ? contexts.serverName() : isName(host) ? host : null;

            final RouteConfig route = binding.resolve(matcher.with(serverName, contexts.alpn(), port));
            if (route == null)
            {
                scratch.context.event(binding.id(), traceId, "tls.route.missing", "bindings." + binding.name()
                    + ": no route for server name " + serverName + ", stream reset");
                app.doInReset(traceId);
                checkClosed();
                return;
            }

            // the app's Begin extension goes on as it is: a TcpBeginEx there tells the tcp client where to connect
            final long exitId = route.exitId();
            final long initialId = scratch.context.supplyInitialId(exitId);
            final long replyId = scratch.context.supplyReplyId(initialId);
            final MutableDirectBuffer writeBuffer = scratch.context.writeBuffer();
            final BeginFW.Builder builder = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(app.routedId).routedId(exitId).streamId(initialId)
                .sequence(0).acknowledge(0).maximum(0)
                .traceId(traceId);
            if (extension != null && extension.sizeof() > 0)
            {
                builder.extension(extension.buffer(), extension.offset(), extension.sizeof());
            }
            final BeginFW netBegin = builder.build();
            final MessageConsumer exit = scratch.context.newStream(BeginFW.TYPE_ID, netBegin.buffer(), netBegin.offset(),
                netBegin.sizeof(), this::onNetMessage);
            net.set(exit, app.routedId, exitId, replyId, initialId);
            if (exit == null)
            {
                app.doInReset(traceId);
                checkClosed();
                return;
            }
            net.outOpened = true;
            armTimer(traceId);
            startEngine(traceId, contexts.context().newEngine(serverName, port, contexts.alpn()));
        }

        @Override
        void onNetBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            net.onInBegin(begin);
            doNetWindow(traceId);
        }

        @Override
        void onHandshakeDone(long traceId)
        {
            final String protocol = engine.getApplicationProtocol();
            final TlsBeginExFW beginEx = tlsBeginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                .typeId(TlsBinding.TYPE_ID)
                .authority(serverName)
                .alpn(protocol != null && !protocol.isEmpty() ? protocol : null)
                .sourceHost((String) null)
                .sourcePort(0)
                .destinationHost((String) null)
                .destinationPort(0)
                .build();
            app.doOutBegin(traceId, beginEx.buffer(), beginEx.offset(), beginEx.sizeof());
            doAppWindow(traceId);
        }

        @Override
        void onHandshakeFailed(long traceId, String reason)
        {
            // the app's Begin is never answered: its stream is reset (the event says why)
            app.doInReset(traceId);
        }

        @Override
        void onClosed()
        {
            connections.remove(app.inboundId);
        }
    }

    // an address literal is never sent as SNI (RFC 6066)
    private static boolean isName(String host)
    {
        return host != null && !host.isEmpty() && host.indexOf(':') == -1
            && !host.chars().allMatch(c -> c == '.' || c >= '0' && c <= '9');
    }
}
