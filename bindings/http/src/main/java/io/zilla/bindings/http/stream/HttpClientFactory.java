/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;

import io.zilla.bindings.http.config.HttpOptionsConfig;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.http.types.stream.HttpResetExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.ObjectHashSet;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One http client binding on one worker: each application stream (a request with its HttpBeginEx) becomes an
 * HTTP/1.1 request on a connection to the route's exit (a tcp client), and the response comes back as the
 * stream's reply ({@link Http1ClientRequest}). A connection whose response kept it alive waits, idle, for the next
 * request to the same exit ({@link Http1ClientConnection}), until the server closes it. With {@code versions: [ h2 ]}
 * the requests go as HTTP/2 streams instead ({@link Http2ClientStream}), many at once on one connection per exit
 * ({@link Http2ClientConnection}).
 */
public final class HttpClientFactory extends HttpStreamFactory
{
    final HttpHeaderListWriter responseHeaders;
    final Http2RequestEncoder requestEncoder = new Http2RequestEncoder(headers);
    final HttpResetExFW.Builder httpResetExRW = new HttpResetExFW.Builder();
    final MutableDirectBuffer resetExtension = new UnsafeBuffer(new byte[64]);
    /** Whether the requests go as HTTP/2 (h2c by prior knowledge): {@code versions} has h2 and not http/1.1. */
    final boolean http2;

    private final Long2ObjectHashMap<Http1ClientRequest> requests = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<ArrayDeque<Http1ClientConnection>> idle = new Long2ObjectHashMap<>();
    private final ObjectHashSet<Http1ClientConnection> connections = new ObjectHashSet<>();
    private final Long2ObjectHashMap<ArrayList<Http2ClientConnection>> http2Connections = new Long2ObjectHashMap<>();

    public HttpClientFactory(EngineContext context, BindingConfig binding)
    {
        super(context, binding);
        this.responseHeaders = new HttpHeaderListWriter(bufferPool.slotCapacity());
        this.http2 = options.versions().contains(HttpOptionsConfig.H2)
            && !options.versions().contains(HttpOptionsConfig.HTTP_1_1);
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        if (http2)
        {
            final Http2ClientStream stream = new Http2ClientStream(this, sender, begin.originId(), begin.routedId(),
                begin.streamId());
            return stream::onAppMessage;
        }
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

    /** An HTTP/2 connection to {@code exitId} that takes new streams, else a new one; null when the exit is not there. */
    Http2ClientConnection acquireHttp2(long traceId, long exitId)
    {
        final ArrayList<Http2ClientConnection> open = http2Connections.computeIfAbsent(exitId, id -> new ArrayList<>());
        for (int i = 0; i < open.size(); i++)
        {
            final Http2ClientConnection connection = open.get(i);
            if (connection.usable())
            {
                return connection;
            }
        }
        final Http2ClientConnection connection = new Http2ClientConnection(this, exitId);
        if (!connection.open(traceId))
        {
            return null;
        }
        open.add(connection);
        return connection;
    }

    /** An HTTP/2 connection that takes no more streams is not offered again. */
    void forget(Http2ClientConnection connection)
    {
        final ArrayList<Http2ClientConnection> open = http2Connections.get(connection.exitId);
        if (open != null)
        {
            open.remove(connection);
        }
    }

    /**
     * Opens a connection's stream to the exit, whose frames come back to {@code handler}; {@code net} becomes its
     * side. Null when the exit is not there.
     */
    MessageConsumer openNet(StreamSide net, long traceId, long exitId, MessageConsumer handler)
    {
        final long initialId = context.supplyInitialId(exitId);
        final long replyId = context.supplyReplyId(initialId);
        final MutableDirectBuffer writeBuffer = context.writeBuffer();
        final BeginFW begin = beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(binding.id()).routedId(exitId).streamId(initialId)
            .sequence(0).acknowledge(0).maximum(0)
            .traceId(traceId)
            .build();
        final MessageConsumer exit = context.newStream(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof(),
            handler);
        if (exit != null)
        {
            net.set(exit, binding.id(), exitId, replyId, initialId);
            net.outOpened = true;
        }
        return exit;
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
        final ArrayList<Http2ClientConnection> open = new ArrayList<>();
        http2Connections.values().forEach(open::addAll);
        for (Http2ClientConnection connection : open)
        {
            connection.doAbortAll(traceId);
        }
        http2Connections.clear();
    }
}
