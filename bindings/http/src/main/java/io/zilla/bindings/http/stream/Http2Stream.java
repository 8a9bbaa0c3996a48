/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FLOW_CONTROL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.INTERNAL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.STREAM_CLOSED;

import io.zilla.bindings.http.HttpBinding;
import io.zilla.bindings.http.codec.http2.Http2DataFW;
import io.zilla.bindings.http.codec.http2.Http2FrameWriter;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpEndExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One HTTP/2 stream of a server connection (RFC 9113 section 5.1: open, half-closed either way, closed) and the
 * application stream its request opens: the request's header list in an HttpBeginEx, as HTTP/1.1's, routed with the
 * same routes, overrides and CORS; its DATA as Data within the application's credit (what arrives beyond it, within
 * the window the client was given, waits in a buffer slot); END_STREAM as End, trailers in an HttpEndEx. The
 * application's reply becomes HEADERS, DATA within the credit the connection hands out, and END_STREAM (trailers as
 * a last HEADERS).
 *
 * <p>A connection keeps its closed streams and reuses them for the next ones ({@link #init}), so that a stream
 * allocates nothing once the connection has had as many at once; a frame that the application sends for a stream this
 * object carried before is recognised by its stream id ({@link StreamSide#owns}) and dropped.
 */
final class Http2Stream implements Http2Shared.Sender
{
    private static final int MAX_ORIGIN = 512;

    int id;
    final StreamSide app;
    final HttpRequestMetrics metrics;
    /** What the client lets us send on this stream (may go negative when it lowers SETTINGS_INITIAL_WINDOW_SIZE). */
    long sendWindow;

    private final Http2Server connection;
    private final HttpServerFactory factory;
    private final MessageConsumer handler = this::onAppMessage;

    // the request: what the client may still send, what it sent, and what waits for the application's credit
    private long receiveWindow;
    private long contentLength = -1;
    private long received;
    private boolean requestEnded;
    private boolean requestDone;
    private final Http2HeldBody body;
    private MutableDirectBuffer trailers;
    private int trailersLength = -1;

    // the response
    private boolean head;
    private boolean replyBegun;
    private boolean replyEnded;
    private boolean bodyAllowed = true;
    private long credit;
    private boolean closed;
    /** The response is complete, but its END_STREAM waits for a window: the stream stays open until it goes. */
    private boolean endDeferred;

    // the request's Origin when the CORS policy allows it, for its response
    private MutableDirectBuffer origin;
    private int originLength = -1;

    Http2Stream(Http2Server connection)
    {
        this.connection = connection;
        this.factory = connection.factory;
        this.app = new StreamSide(factory.frames);
        this.metrics = factory.metrics.newRequestMetrics();
        this.body = new Http2HeldBody(factory.bufferPool, factory.maxFrame);
    }

    /** Makes this object stream {@code id}, new: every field as a new stream's (buffers it had are kept). */
    Http2Stream init(int id, long sendWindow, long receiveWindow)
    {
        this.id = id;
        this.sendWindow = sendWindow;
        this.receiveWindow = receiveWindow;
        contentLength = -1;
        received = 0;
        requestEnded = false;
        requestDone = false;
        body.clear();
        trailersLength = -1;
        head = false;
        replyBegun = false;
        replyEnded = false;
        bodyAllowed = true;
        credit = 0;
        closed = false;
        endDeferred = false;
        originLength = -1;
        app.reset();
        return this;
    }

    /** END_STREAM came from the client: the stream is half-closed (remote). */
    boolean requestEnded()
    {
        return requestEnded;
    }

    /** A request's headers, decoded and checked into the factory's request header list of {@code length} bytes. */
    void onRequest(long traceId, int length, boolean endStream, Http2RequestHeaders request)
    {
        factory.requests.increment();
        head = request.head;
        contentLength = request.contentLength;
        requestEnded = endStream;
        if (endStream && contentLength > 0)
        {
            connection.streamError(traceId, id, PROTOCOL_ERROR);
            return;
        }
        final HttpBeginExFW headers = factory.httpBeginExRO.wrap(factory.requestHeaders.buffer(), 0, length);
        if (factory.cors.enabled() && cors(traceId, headers, request.options))
        {
            return;
        }
        final HttpRouter.Route route = factory.router.resolve(headers);
        if (route == null)
        {
            respondLocally(traceId, 404, null, requestEnded);
            return;
        }
        final DirectBuffer extension = factory.router.applyOverrides(route, headers, factory.length);
        if (factory.length[0] < 0)
        {
            respondLocally(traceId, 431, null, requestEnded);
            return;
        }
        if (!open(traceId, route.exitId, extension, factory.length[0]))
        {
            respondLocally(traceId, 502, null, requestEnded);
            return;
        }
        metrics.begin(extension, factory.length[0]);
        if (requestEnded)
        {
            doRequestEnd(traceId);
        }
    }

    // a preflight is answered here (true); an allowed origin is kept for the response's CORS headers
    private boolean cors(long traceId, HttpBeginExFW headers, boolean options)
    {
        final HttpCors cors = factory.cors;
        final HttpHeaderFW originHeader = factory.headers.find(headers, "origin");
        if (originHeader == null)
        {
            return false;
        }
        final DirectBuffer buffer = headers.buffer();
        final int originOffset = originHeader.value().valueOffset();
        final int originSize = originHeader.value().length();
        final boolean allowed = cors.allowsOrigin(buffer, originOffset, originSize) && originSize <= MAX_ORIGIN;
        final HttpHeaderFW methodHeader = options ? factory.headers.find(headers, "access-control-request-method") : null;
        if (methodHeader != null)
        {
            final int methodOffset = methodHeader.value().valueOffset();
            final int methodLength = methodHeader.value().length();
            final HttpHeaderFW headersHeader = factory.headers.find(headers, "access-control-request-headers");
            final int headersOffset = headersHeader != null ? headersHeader.value().valueOffset() : 0;
            final int headersLength = headersHeader != null ? headersHeader.value().length() : 0;
            final boolean permitted = allowed && cors.allowsMethod(buffer, methodOffset, methodLength)
                && cors.allowsHeaders(buffer, headersOffset, headersLength);
            final HttpAsciiWriter out = factory.out.reset();
            if (permitted)
            {
                cors.preflight(out, buffer, originOffset, originSize, methodOffset, methodLength, headersOffset,
                    headersLength);
            }
            respondLocally(traceId, permitted ? 204 : 403, out, requestEnded);
            return true;
        }
        if (allowed)
        {
            if (origin == null)
            {
                origin = new UnsafeBuffer(new byte[MAX_ORIGIN]);
            }
            origin.putBytes(0, buffer, originOffset, originSize);
            originLength = originSize;
        }
        return false;
    }

    private boolean open(long traceId, long exitId, DirectBuffer extension, int length)
    {
        return factory.openApp(app, traceId, exitId, extension, length, handler);
    }

    void onData(long traceId, Http2DataFW data)
    {
        final int flow = data.flowControlled();
        final int length = data.dataLength();
        if (requestEnded)
        {
            connection.streamError(traceId, id, STREAM_CLOSED);
            return;
        }
        if (flow > receiveWindow)
        {
            connection.streamError(traceId, id, FLOW_CONTROL_ERROR);
            return;
        }
        receiveWindow -= flow;
        received += length;
        metrics.request(length);
        final boolean endStream = data.endStream();
        if (contentLength >= 0 && (received > contentLength || endStream && received != contentLength))
        {
            factory.event(traceId, "http.request.rejected", "content-length does not match the DATA on stream " + id);
            connection.streamError(traceId, id, PROTOCOL_ERROR);
            return;
        }
        requestEnded |= endStream;
        deliver(traceId, data.buffer(), data.dataOffset(), length);
        if (closed)
        {
            return;
        }
        if (requestEnded)
        {
            flushRequestEnd(traceId);
        }
        else
        {
            updateReceiveWindow(traceId);
        }
    }

    void onTrailers(long traceId, DirectBuffer buffer, int length)
    {
        requestEnded = true;
        if (requestDone)
        {
            checkClosed(traceId);
            return;
        }
        // rare: kept in a buffer of its own until the body before it has gone to the application
        if (trailers == null || trailers.capacity() < length)
        {
            trailers = new UnsafeBuffer(new byte[length]);
        }
        trailers.putBytes(0, buffer, 0, length);
        trailersLength = length;
        flushRequestEnd(traceId);
    }

    // the request body goes to the application as far as its credit goes; the rest waits in a slot
    private void deliver(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (!requestDone && length > 0 && !body.deliver(app, traceId, buffer, offset, length))
        {
            // the worker's slots are all taken: this stream is reset, the others go on
            factory.event(traceId, "http.buffers.exhausted", "no buffer slot for the request body of stream " + id);
            connection.streamError(traceId, id, INTERNAL_ERROR);
        }
    }

    // what waits goes to the application as its credit allows
    private void flushHeld(long traceId)
    {
        if (!requestDone)
        {
            body.flush(app, traceId);
        }
    }

    private void flushRequestEnd(long traceId)
    {
        if (body.held() == 0 && !requestDone && app.outOpened)
        {
            doRequestEnd(traceId);
        }
        checkClosed(traceId);
    }

    // the client may send what the application can take beyond what waits, within a slot; told when half used
    private void updateReceiveWindow(long traceId)
    {
        if (requestEnded || connection.closing())
        {
            return;
        }
        // a request whose body is dropped is given the initial window again and again, so that it can end
        final long desired = requestDone ? connection.initialWindow
            : Math.min(Math.max(app.outCredit(), 0), factory.bufferPool.slotCapacity()) - body.held();
        if (desired > receiveWindow && receiveWindow <= desired / 2)
        {
            final int limit = Http2FrameWriter.windowUpdate(connection.shared.frame, 0, id, (int) (desired - receiveWindow));
            receiveWindow = desired;
            connection.write(traceId, connection.shared.frame, 0, limit);
        }
    }

    private void doRequestEnd(long traceId)
    {
        requestDone = true;
        factory.doEnd(app, traceId, trailersLength < 0 ? null : trailers, 0, Math.max(trailersLength, 0));
    }

    private void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!app.owns(buffer, index))
        {
            // late, for the stream this object carried before
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onAppBegin(factory.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onAppData(factory.dataRO.wrap(buffer, index, index + length));
            case FlushFW.TYPE_ID -> app.inSeq += factory.flushRO.wrap(buffer, index, index + length).reserved();
            case EndFW.TYPE_ID -> onAppEnd(factory.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onAppAbort(factory.abortRO.wrap(buffer, index, index + length).traceId());
            case WindowFW.TYPE_ID -> onAppWindow(factory.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onAppReset(factory.resetRO.wrap(buffer, index, index + length).traceId());
            default ->
            {
                // signals and challenges mean nothing here
            }
        }
    }

    private void onAppBegin(BeginFW begin)
    {
        final long traceId = begin.traceId();
        app.onInBegin(begin);
        if (closed || replyEnded)
        {
            app.doInReset(traceId);
            return;
        }
        replyBegun = true;
        final OctetsFW extension = begin.extension();
        final HttpBeginExFW beginEx = extension != null && extension.sizeof() > 0
            ? factory.httpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        final HttpBeginExFW headers = beginEx != null && beginEx.typeId() == HttpBinding.TYPE_ID ? beginEx : null;
        int status = 200;
        final HttpHeaderFW statusHeader = headers != null ? factory.headers.find(headers, ":status") : null;
        if (statusHeader != null)
        {
            final String16FW value = statusHeader.value();
            final long parsed = value.length() == 3 ? Http1RequestParser.digits(value.buffer(), value.valueOffset(), 3) : -1;
            status = parsed >= 200 && parsed <= 599 ? (int) parsed : 502;
        }
        metrics.status(status);
        bodyAllowed = !head && status != 204 && status != 304;
        final HttpAsciiWriter out = factory.out.reset();
        if (headers != null)
        {
            factory.headers.write(out, headers);
        }
        if (originLength >= 0)
        {
            factory.cors.response(out, origin, 0, originLength);
            // with no expose list, every header of the response is exposed to the page's scripts
            if (factory.cors.exposeAll() && headers != null
                && factory.headers.writeNames(out, "access-control-expose-headers: ", headers))
            {
                out.crlf();
            }
        }
        if (!connection.writeHeaders(traceId, id, status, out, false))
        {
            factory.event(traceId, "http.response.overflow", "response headers larger than a buffer slot on stream " + id);
            connection.streamError(traceId, id, INTERNAL_ERROR);
            return;
        }
        connection.flushGrants(traceId);
    }

    private void onAppData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!app.onInData(data.sequence(), reserved))
        {
            connection.streamError(traceId, id, INTERNAL_ERROR);
            return;
        }
        if (closed)
        {
            return;
        }
        credit -= reserved;
        connection.granted -= reserved;
        final OctetsFW payload = data.payload();
        if (payload != null && payload.sizeof() > 0 && bodyAllowed && !replyEnded)
        {
            final int length = payload.sizeof();
            metrics.response(length);
            connection.writeData(traceId, id, payload.buffer(), payload.offset(), length, false);
            sendWindow -= length;
            connection.sendWindow -= length;
        }
        connection.flushGrants(traceId);
    }

    private void onAppEnd(EndFW end)
    {
        final long traceId = end.traceId();
        app.inClosed = true;
        releaseCredit();
        if (replyEnded || closed)
        {
            return;
        }
        replyEnded = true;
        final OctetsFW extension = end.extension();
        final HttpEndExFW endEx = extension != null && extension.sizeof() > 0
            ? factory.httpEndExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (endEx != null && endEx.typeId() == HttpBinding.TYPE_ID && endEx.trailers().count() > 0)
        {
            final HttpAsciiWriter out = factory.out.reset();
            final int count = endEx.trailers().count();
            int offset = endEx.trailers().offset() + Integer.BYTES;
            for (int i = 0; i < count; i++)
            {
                final HttpHeaderFW trailer = factory.headers.headerAt(endEx.buffer(), offset, endEx.limit());
                offset = trailer.limit();
                out.bytes(trailer.name().buffer(), trailer.name().valueOffset(), trailer.name().length()).text(": ")
                    .bytes(trailer.value().buffer(), trailer.value().valueOffset(), trailer.value().length()).crlf();
            }
            connection.writeHeaders(traceId, id, -1, out, true);
        }
        else
        {
            writeEnd(traceId);
        }
        finishResponse(traceId);
    }

    private void onAppAbort(long traceId)
    {
        app.inClosed = true;
        releaseCredit();
        if (replyEnded || closed)
        {
            return;
        }
        if (!replyBegun)
        {
            respondLocally(traceId, 502, null, requestEnded);
        }
        else
        {
            // the response is cut short: the client must see that it is
            connection.streamError(traceId, id, INTERNAL_ERROR);
        }
    }

    private void onAppWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        app.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        flushHeld(traceId);
        if (requestEnded)
        {
            flushRequestEnd(traceId);
        }
        else
        {
            updateReceiveWindow(traceId);
        }
    }

    private void onAppReset(long traceId)
    {
        // the application takes no more of the request: what comes is dropped, the response may still come
        app.outClosed = true;
        requestDone = true;
        body.clear();
        if (!replyBegun && !replyEnded && !closed)
        {
            app.doInReset(traceId);
            respondLocally(traceId, 502, null, requestEnded);
            return;
        }
        updateReceiveWindow(traceId);
        checkClosed(traceId);
    }

    /**
     * The response is complete. A request the client is still sending is read to its end and dropped (the stream is
     * half-closed (local) until then), so that what it sends is still checked as RFC 9113 asks.
     */
    private void finishResponse(long traceId)
    {
        if (!requestEnded && !requestDone)
        {
            requestDone = true;
            app.doOutAbort(traceId);
            body.clear();
            updateReceiveWindow(traceId);
        }
        checkClosed(traceId);
    }

    /**
     * Answers the request here with {@code status} and the header lines of {@code lines} (null: none), without a body
     * (END_STREAM on an empty DATA frame, as for an application's response); an application stream the request
     * opened is aborted.
     */
    void respondLocally(long traceId, int status, HttpAsciiWriter lines, boolean requestComplete)
    {
        requestEnded = requestComplete;
        final HttpAsciiWriter out = lines != null ? lines : factory.out.reset();
        if (status != 204 && status != 304)
        {
            out.text("content-length: 0\r\n");
        }
        connection.writeHeaders(traceId, id, status, out, false);
        writeEnd(traceId);
        replyEnded = true;
        if (app.outOpened && !requestDone)
        {
            app.doOutAbort(traceId);
        }
        app.doInReset(traceId);
        requestDone = true;
        finishResponse(traceId);
    }

    @Override
    public long addSendWindow(long delta)
    {
        sendWindow += delta;
        return sendWindow;
    }

    /** Grants the application up to {@code room} more credit for its response, at most {@code max} in all. */
    @Override
    public long grant(long traceId, long room, int max, int padding)
    {
        if (!replyBegun || replyEnded || closed || !app.inOpened || app.inClosed)
        {
            return 0;
        }
        final long more = Http2Shared.more(credit, sendWindow, room, max, padding);
        if (more == 0)
        {
            return 0;
        }
        credit += more;
        app.doInWindow(traceId, app.inSeq, (int) credit, padding);
        return more;
    }

    /** Whether the response has a body still to send and no window left to send it in. */
    boolean stalled()
    {
        return replyBegun && !replyEnded && !closed && bodyAllowed && (sendWindow <= 0 || connection.sendWindow <= 0);
    }

    /** RST_STREAM from the client: the application's request is aborted and its response reset. */
    void onRstStream(long traceId)
    {
        doAbort(traceId);
        connection.onStreamClosed(traceId, this, false);
    }

    /** The client closed its side of the connection: a request not complete is aborted. */
    void onClientGone(long traceId)
    {
        if (!requestEnded)
        {
            requestEnded = true;
            if (!requestDone)
            {
                requestDone = true;
                app.doOutAbort(traceId);
            }
            checkClosed(traceId);
        }
    }

    /** Aborts the application's request and resets its response; the stream is done. */
    void doAbort(long traceId)
    {
        closed = true;
        if (!requestDone)
        {
            requestDone = true;
            app.doOutAbort(traceId);
        }
        if (!app.inOpened && app.outOpened && !app.inClosed)
        {
            // a request that was complete and has no reply yet: the exit (an http client, say) must learn that no
            // one waits for its reply any more, or it would hold the upstream's stream for ever
            factory.doReset(app, traceId, null, 0);
        }
        app.doInReset(traceId);
        releaseCredit();
        body.clear();
    }

    /**
     * Ends the response with an empty DATA frame and END_STREAM, or defers that until the client's window for the
     * stream is positive. A DATA frame goes only into a positive window, the empty one that ends a stream included
     * (as nghttp2 does): a client that keeps a stream's window at 0 (h2spec 5.1.2) keeps the stream open, and so
     * counted against SETTINGS_MAX_CONCURRENT_STREAMS, until it opens the window. A client that closed its side can
     * open no window: the end then goes at once.
     */
    private void writeEnd(long traceId)
    {
        if (sendWindow > 0 || connection.net.inClosed)
        {
            connection.writeData(traceId, id, null, 0, 0, true);
        }
        else
        {
            endDeferred = true;
            connection.deferredEnds++;
        }
    }

    /** Whether the END_STREAM of a complete response waits for a window. */
    boolean endDeferred()
    {
        return endDeferred && !closed;
    }

    /** Writes the deferred END_STREAM if the window now allows it (or the client can open none); whether it went. */
    boolean flushDeferredEnd(long traceId)
    {
        if (!endDeferred || closed || sendWindow <= 0 && !connection.net.inClosed)
        {
            return false;
        }
        endDeferred = false;
        connection.writeData(traceId, id, null, 0, 0, true);
        checkClosed(traceId);
        return true;
    }

    private void checkClosed(long traceId)
    {
        if (!closed && replyEnded && requestEnded && requestDone && !endDeferred)
        {
            closed = true;
            body.clear();
            connection.onStreamClosed(traceId, this, false);
        }
    }

    private void releaseCredit()
    {
        connection.granted -= credit;
        credit = 0;
    }
}
