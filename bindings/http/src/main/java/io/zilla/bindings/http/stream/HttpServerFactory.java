/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.ArrayList;

import io.zilla.bindings.http.config.Http2FloodLimits;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.tls.types.stream.TlsBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One http server binding on one worker. Each network stream (from tcp, or tls) is one connection; the factory
 * chooses its protocol: HTTP/1.x ({@link Http1Server}) unless the tls binding's ALPN settled {@code h2} or the
 * connection opens with HTTP/2's preface, when it hands over to {@link Http2Server} (docs/bindings/http.md). The state that every
 * connection on the worker can share (flyweights, scratch buffers, routes) lives here.
 */
public final class HttpServerFactory extends HttpStreamFactory
{
    final HttpCors cors;
    final HttpHeaderListWriter requestHeaders;
    final AtomicCounter requests;
    final AtomicCounter rejected;
    final HttpMetrics metrics;
    final SignalFW signalRO = new SignalFW();
    final TlsBeginExFW tlsBeginExRO = new TlsBeginExFW();

    private final Long2ObjectHashMap<Http1Server> connections = new Long2ObjectHashMap<>();

    public HttpServerFactory(EngineContext context, BindingConfig binding, Http2FloodLimits floods)
    {
        super(context, binding, floods);
        this.cors = new HttpCors(options.accessControl());
        this.requestHeaders = new HttpHeaderListWriter(bufferPool.slotCapacity());
        this.requests = context.supplyCounter(binding.id(), "requests");
        this.rejected = context.supplyCounter(binding.id(), "requests.rejected");
        this.metrics = new HttpMetrics(context, binding);
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final Http1Server connection = new Http1Server(this, sender, begin.originId(), begin.routedId(), begin.streamId());
        connections.put(begin.streamId(), connection);
        return connection;
    }

    void onClosed(long initialId)
    {
        connections.remove(initialId);
    }

    /** The binding is going away: abort every connection it still serves. */
    @Override
    public void close()
    {
        // a copy: aborting a connection removes it from the map
        for (Http1Server connection : new ArrayList<>(connections.values()))
        {
            connection.doAbortAll(context.supplyTraceId());
        }
    }
}
