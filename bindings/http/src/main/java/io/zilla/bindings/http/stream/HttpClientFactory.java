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
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One http client binding on one worker: each application stream (a request with its HttpBeginEx) becomes an
 * HTTP/1.1 request on a connection of its own to the route's exit (a tcp client), and the response comes back as the
 * stream's reply ({@link Http1Client}). Connections are not reused yet: each request says {@code connection: close}.
 */
public final class HttpClientFactory implements BindingHandler
{
    final EngineContext context;
    final BindingConfig binding;
    final StreamFrames frames;
    final BufferPool bufferPool;
    final HttpRouter router;
    final HttpRequestHead head = new HttpRequestHead();
    final HttpHeaderListWriter responseHeaders;
    final HttpHeaderListWriter trailers;
    final HttpAsciiWriter out;
    final int[] length = new int[1];
    final int maxFrame;

    final BeginFW beginRO = new BeginFW();
    final DataFW dataRO = new DataFW();
    final EndFW endRO = new EndFW();
    final AbortFW abortRO = new AbortFW();
    final FlushFW flushRO = new FlushFW();
    final WindowFW windowRO = new WindowFW();
    final ResetFW resetRO = new ResetFW();
    final HttpBeginExFW httpBeginExRO = new HttpBeginExFW();
    final BeginFW.Builder beginRW = new BeginFW.Builder();
    final EndFW.Builder endRW = new EndFW.Builder();

    private final Long2ObjectHashMap<Http1Client> clients = new Long2ObjectHashMap<>();

    public HttpClientFactory(EngineContext context, BindingConfig binding)
    {
        this.context = context;
        this.binding = binding;
        final HttpOptionsConfig options = binding.options() instanceof HttpOptionsConfig http ? http
            : HttpOptionsConfig.DEFAULTS;
        this.frames = new StreamFrames(context.writeBuffer());
        this.bufferPool = context.bufferPool();
        final int capacity = bufferPool.slotCapacity();
        this.router = new HttpRouter(binding, options, capacity);
        this.responseHeaders = new HttpHeaderListWriter(capacity);
        this.trailers = new HttpHeaderListWriter(capacity);
        this.out = new HttpAsciiWriter(new UnsafeBuffer(new byte[capacity + HttpServerFactory.CHUNK_OVERHEAD
            + Http1Client.FRAMING_TAIL]));
        this.maxFrame = capacity;
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final Http1Client client = new Http1Client(this, sender, begin.originId(), begin.routedId(), begin.streamId());
        clients.put(begin.streamId(), client);
        return client::onAppMessage;
    }

    void onClosed(long initialId)
    {
        clients.remove(initialId);
    }

    void event(long traceId, String name, String detail)
    {
        context.event(binding.id(), traceId, name, "bindings." + binding.name() + ": " + detail);
    }

    /** The binding is going away: abort every request it still carries. */
    public void close()
    {
        for (Http1Client client : new ArrayList<>(clients.values()))
        {
            client.doAbortAll(context.supplyTraceId());
        }
    }
}
