/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;

import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.ObjectHashSet;

/**
 * One http client binding on one worker: each application stream (a request with its HttpBeginEx) becomes an
 * HTTP/1.1 request on a connection to the route's exit (a tcp client), and the response comes back as the
 * stream's reply ({@link Http1ClientRequest}). A connection whose response kept it alive waits, idle, for the next
 * request to the same exit ({@link Http1ClientConnection}), until the server closes it.
 */
public final class HttpClientFactory extends HttpStreamFactory
{
    final HttpHeaderListWriter responseHeaders;

    private final Long2ObjectHashMap<Http1ClientRequest> requests = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<ArrayDeque<Http1ClientConnection>> idle = new Long2ObjectHashMap<>();
    private final ObjectHashSet<Http1ClientConnection> connections = new ObjectHashSet<>();

    public HttpClientFactory(EngineContext context, BindingConfig binding)
    {
        super(context, binding);
        this.responseHeaders = new HttpHeaderListWriter(bufferPool.slotCapacity());
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final Http1ClientRequest request = new Http1ClientRequest(this, sender, begin.originId(), begin.routedId(),
            begin.streamId());
        requests.put(request.id(), request);
        return request::onAppMessage;
    }

    /** An idle connection to {@code exitId}, else a new one; null when the exit is not there. */
    Http1ClientConnection acquire(long traceId, long exitId)
    {
        final ArrayDeque<Http1ClientConnection> waiting = idle.get(exitId);
        while (waiting != null && !waiting.isEmpty())
        {
            final Http1ClientConnection connection = waiting.pollLast();
            if (connection.usable())
            {
                return connection;
            }
        }
        final Http1ClientConnection connection = new Http1ClientConnection(this, exitId);
        if (!connection.open(traceId))
        {
            return null;
        }
        connections.add(connection);
        return connection;
    }

    /** A connection whose response kept it alive waits for the next request to its exit. */
    void release(Http1ClientConnection connection)
    {
        idle.computeIfAbsent(connection.exitId, id -> new ArrayDeque<>()).addLast(connection);
    }

    /** A connection that closed is not reused. */
    void forget(Http1ClientConnection connection)
    {
        connections.remove(connection);
        final ArrayDeque<Http1ClientConnection> waiting = idle.get(connection.exitId);
        if (waiting != null)
        {
            waiting.remove(connection);
        }
    }

    void onClosed(Http1ClientRequest request)
    {
        requests.remove(request.id());
    }

    /** The binding is going away: abort every request it still carries, and its connections. */
    @Override
    public void close()
    {
        final long traceId = context.supplyTraceId();
        for (Http1ClientRequest request : new ArrayList<>(requests.values()))
        {
            request.doAbortAll(traceId);
        }
        for (Http1ClientConnection connection : new ArrayList<>(connections))
        {
            connection.doAbortAll(traceId);
        }
        idle.clear();
    }
}
