/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;

import io.zilla.bindings.http.HttpBinding;
import io.zilla.bindings.http.config.Http2FloodLimits;
import io.zilla.bindings.http.config.HttpOptionsConfig;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
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

    public HttpClientFactory(EngineContext context, BindingConfig binding, Http2FloodLimits floods)
    {
        super(context, binding, floods);
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

    /**
     * The route of a request's Begin, with {@link #httpBeginExRO} left on its header list, overrides applied (without
     * overrides the list is the Begin's own extension, where it lies; with them, a copy at offset 0); null, with an
     * event, when the Begin has no HttpBeginEx, no route matches, or the overrides do not fit.
     */
    HttpRouter.Route resolve(long traceId, BeginFW begin)
    {
        final OctetsFW extension = begin.extension();
        final HttpBeginExFW request = extension != null && extension.sizeof() > 0
            ? httpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (request == null || request.typeId() != HttpBinding.TYPE_ID)
        {
            event(traceId, "http.request.invalid", "a stream without an HttpBeginEx, reset");
            return null;
        }
        final HttpRouter.Route route = router.resolve(request);
        if (route == null)
        {
            event(traceId, "http.route.missing", "no route for the request, reset");
            return null;
        }
        final DirectBuffer headers = router.applyOverrides(route, request, length);
        if (headers != request.buffer())
        {
            if (length[0] < 0)
            {
                event(traceId, "http.request.invalid", "request headers and overrides too large, reset");
                return null;
            }
            httpBeginExRO.wrap(headers, 0, length[0]);
        }
        return route;
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
