/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.ArrayList;

import io.zilla.bindings.http.config.HttpOptionsConfig;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpEndExFW;
import io.zilla.specs.tls.types.stream.TlsBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;

/**
 * One http server binding on one worker. Each network stream (from tcp, or tls) is one connection; the factory
 * chooses its protocol: HTTP/1.x ({@link Http1Server}) unless the tls binding's ALPN settled {@code h2} or the
 * connection opens with HTTP/2's preface, where HTTP/2 plugs in (docs/bindings/http.md). The state that every
 * connection on the worker can share (flyweights, scratch buffers, routes) lives here.
 */
public final class HttpServerFactory implements BindingHandler
{
    /** A chunk's framing around its payload: up to 16 hex digits, CRLF, and the CRLF after the payload. */
    static final int CHUNK_OVERHEAD = 20;

    final EngineContext context;
    final BindingConfig binding;
    final HttpOptionsConfig options;
    final StreamFrames frames;
    final BufferPool bufferPool;
    final HttpRouter router;
    final HttpCors cors;
    final HttpRequestHead head = new HttpRequestHead();
    final HttpHeaderListWriter requestHeaders;
    final HttpHeaderListWriter trailers;
    final HttpAsciiWriter out;
    final int[] length = new int[1];
    /** The most payload one Data frame to the client may carry, so that its chunk fits {@link #out}. */
    final int maxFrame;

    final AtomicCounter requests;
    final AtomicCounter rejected;

    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final FlushFW flushRO = new FlushFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();
    final SignalFW signalRO = new SignalFW();
    final HttpBeginExFW httpBeginExRO = new HttpBeginExFW();
    final HttpEndExFW httpEndExRO = new HttpEndExFW();
    final TlsBeginExFW tlsBeginExRO = new TlsBeginExFW();
    final BeginFW.Builder beginRW = new BeginFW.Builder();
    final EndFW.Builder endRW = new EndFW.Builder();

    private final Long2ObjectHashMap<Http1Server> connections = new Long2ObjectHashMap<>();

    public HttpServerFactory(EngineContext context, BindingConfig binding)
    {
        this.context = context;
        this.binding = binding;
        this.options = binding.options() instanceof HttpOptionsConfig http ? http : HttpOptionsConfig.DEFAULTS;
        this.frames = new StreamFrames(context.writeBuffer());
        this.bufferPool = context.bufferPool();
        final int capacity = bufferPool.slotCapacity();
        this.router = new HttpRouter(binding, options, capacity);
        this.cors = new HttpCors(options.accessControl());
        this.requestHeaders = new HttpHeaderListWriter(capacity);
        this.trailers = new HttpHeaderListWriter(capacity);
        this.out = new HttpAsciiWriter(new UnsafeBuffer(new byte[capacity + CHUNK_OVERHEAD]));
        this.maxFrame = capacity;
        this.requests = context.supplyCounter(binding.id(), "requests");
        this.rejected = context.supplyCounter(binding.id(), "requests.rejected");
    }

    /** The header-list limit: the configured one, within what a buffer slot can hold. */
    int headerListSize()
    {
        return Math.min(options.limits().headerListSize(), bufferPool.slotCapacity());
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final Http1Server connection = new Http1Server(this, sender, begin.originId(), begin.routedId(), begin.streamId());
        connections.put(begin.streamId(), connection);
        return connection::onNetMessage;
    }

    void onClosed(long initialId)
    {
        connections.remove(initialId);
    }

    void event(long traceId, String name, String detail)
    {
        context.event(binding.id(), traceId, name, "bindings." + binding.name() + ": " + detail);
    }

    /** The binding is going away: abort every connection it still serves. */
    public void close()
    {
        // a copy: aborting a connection removes it from the map
        for (Http1Server connection : new ArrayList<>(connections.values()))
        {
            connection.doAbortAll(context.supplyTraceId());
        }
    }
}
