/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.ArrayList;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * One http client binding on one worker: each application stream (a request with its HttpBeginEx) becomes an
 * HTTP/1.1 request on a connection of its own to the route's exit (a tcp client), and the response comes back as the
 * stream's reply ({@link Http1Client}). Connections are not reused yet: each request says {@code connection: close}.
 */
public final class HttpClientFactory extends HttpStreamFactory
{
    final HttpHeaderListWriter responseHeaders;

    private final Long2ObjectHashMap<Http1Client> clients = new Long2ObjectHashMap<>();

    public HttpClientFactory(EngineContext context, BindingConfig binding)
    {
        super(context, binding);
        this.responseHeaders = new HttpHeaderListWriter(bufferPool.slotCapacity());
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

    /** The binding is going away: abort every request it still carries. */
    @Override
    public void close()
    {
        for (Http1Client client : new ArrayList<>(clients.values()))
        {
            client.doAbortAll(context.supplyTraceId());
        }
    }
}
