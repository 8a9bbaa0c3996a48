/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

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
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;

/**
 * One request of an http client: the application stream's HttpBeginEx becomes an HTTP/1.1 request head on a
 * connection to the route's exit ({@link Http1ClientConnection}: an idle one when there is one, else a new one), its
 * Data the body (as it is under a content-length, else chunked), and the response the stream's reply: an HttpBeginEx
 * with {@code :status} and the headers, then the body, de-chunked. Credit both ways comes from the other side.
 */
final class Http1ClientRequest
{
    private static final String CHUNKED_TAIL = "transfer-encoding: chunked\r\n\r\n";

    private final HttpClientFactory factory;
    private final StreamSide app;
    private Http1ClientConnection connection;

    private boolean headComplete;
    private boolean chunked;
    private boolean headRequest;
    private boolean sent;
    private boolean requestEnded;

    Http1ClientRequest(HttpClientFactory factory, MessageConsumer sender, long originId, long routedId, long initialId)
    {
        this.factory = factory;
        this.app = new StreamSide(factory.frames);
        app.set(sender, originId, routedId, initialId, initialId & ~1L);
    }

    long id()
    {
        return app.inboundId;
    }

    boolean head()
    {
        return headRequest;
    }

    /** Whether the whole request, its End included, was written. */
    boolean sent()
    {
        return sent;
    }

    void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onAppBegin(factory.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onAppData(factory.dataRO.wrap(buffer, index, index + length));
            case FlushFW.TYPE_ID -> app.inSeq += factory.flushRO.wrap(buffer, index, index + length).reserved();
            case EndFW.TYPE_ID -> onAppEnd(factory.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onAppAbort(factory.abortRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID -> onAppWindow(factory.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onAppReset(factory.resetRO.wrap(buffer, index, index + length));
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
        final HttpRouter.Route route = factory.resolve(traceId, begin);
        if (route == null)
        {
            doAbortApp(traceId);
            return;
        }
        final HttpBeginExFW requestHeaders = factory.httpBeginExRO;
        if (!encodeHead(requestHeaders))
        {
            factory.event(traceId, "http.request.invalid", "a request without :method or :path, or too large, reset");
            doAbortApp(traceId);
            return;
        }
        connection = factory.acquire(traceId, route.exitId);
        if (connection == null)
        {
            doAbortApp(traceId);
            return;
        }
        connection.assign(this);
        // a new connection holds the head until its first credit; an idle one may write it at once
        final HttpAsciiWriter out = factory.out;
        if (!connection.write(traceId, out.buffer, 0, out.position))
        {
            connection.doAbortAll(traceId);
            return;
        }
        doAppWindow(traceId);
    }

    // the request line and headers into factory.out; the empty line too when a content-length frames the body
    private boolean encodeHead(HttpBeginExFW headers)
    {
        final HttpHeaderFW method = factory.headers.find(headers, ":method");
        if (method == null)
        {
            return false;
        }
        final String16FW methodValue = method.value();
        headRequest = HttpRequestHead.equalsAscii(methodValue.buffer(), methodValue.valueOffset(), methodValue.length(),
            "HEAD");
        final HttpAsciiWriter out = factory.out.reset();
        out.bytes(methodValue.buffer(), methodValue.valueOffset(), methodValue.length()).text(" ");
        final HttpHeaderFW path = factory.headers.find(headers, ":path");
        if (path == null)
        {
            return false;
        }
        final String16FW pathValue = path.value();
        out.bytes(pathValue.buffer(), pathValue.valueOffset(), pathValue.length()).text(" HTTP/1.1\r\n");
        final HttpHeaderFW authority = factory.headers.find(headers, ":authority");
        if (authority != null)
        {
            final String16FW value = authority.value();
            out.text("host: ").bytes(value.buffer(), value.valueOffset(), value.length()).crlf();
        }
        final boolean hasLength = (factory.headers.write(out, headers) & Http1HeaderEncoder.CONTENT_LENGTH) != 0;
        if (hasLength)
        {
            out.crlf();
            headComplete = true;
        }
        return !out.overflow;
    }

    private void onAppData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (connection == null || !app.onInData(data.sequence(), reserved))
        {
            doAbortAll(traceId);
            return;
        }
        final OctetsFW payload = data.payload();
        if (payload == null || payload.sizeof() == 0)
        {
            return;
        }
        final HttpAsciiWriter out = factory.out.reset();
        if (!headComplete)
        {
            // a body of unknown length: chunked
            headComplete = true;
            chunked = true;
            out.text(CHUNKED_TAIL);
        }
        if (chunked)
        {
            out.hex(payload.sizeof()).crlf().bytes(payload.buffer(), payload.offset(), payload.sizeof()).crlf();
        }
        else
        {
            out.bytes(payload.buffer(), payload.offset(), payload.sizeof());
        }
        if (!connection.write(traceId, out.buffer, 0, out.position))
        {
            doAbortAll(traceId);
            return;
        }
        doAppWindow(traceId);
    }

    private void onAppEnd(EndFW end)
    {
        final long traceId = end.traceId();
        app.inClosed = true;
        requestEnded = true;
        if (connection == null)
        {
            return;
        }
        final HttpAsciiWriter out = factory.out.reset();
        if (!headComplete)
        {
            // no body
            headComplete = true;
            out.crlf();
        }
        else if (chunked)
        {
            out.text("0\r\n\r\n");
        }
        if (!connection.write(traceId, out.buffer, 0, out.position))
        {
            doAbortAll(traceId);
            return;
        }
        sent = true;
    }

    private void onAppAbort(AbortFW abort)
    {
        app.inClosed = true;
        doAbortAll(abort.traceId());
    }

    private void onAppReset(ResetFW reset)
    {
        app.outClosed = true;
        doAbortAll(reset.traceId());
    }

    private void onAppWindow(WindowFW window)
    {
        app.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        if (connection != null)
        {
            connection.resume(window.traceId());
        }
    }

    /** The request body gets the connection's credit, less what is in flight, with room for its framing. */
    void doAppWindow(long traceId)
    {
        if (connection == null || connection.writing() || app.inClosed)
        {
            return;
        }
        final StreamSide net = connection.net;
        final int framing = headComplete && !chunked ? 0 : HttpStreamFactory.CHUNK_OVERHEAD + HttpStreamFactory.FRAMING_TAIL;
        final int padding = net.outPad + framing;
        final int max = Math.min(net.outMax, factory.maxFrame);
        final long ack = Math.max(app.inAck, app.inSeq - (net.outSeq - net.outAck));
        if (max > 0 && (ack != app.inAck || max != app.inMax))
        {
            app.doInWindow(traceId, ack, max, padding);
        }
    }

    /** The response's head: the reply begins with its status and headers; false when they do not fit. */
    boolean onResponseBegin(long traceId, HttpRequestHead head)
    {
        final DirectBuffer buffer = head.buffer;
        final HttpHeaderListWriter headers = factory.responseHeaders.begin();
        final HttpAsciiWriter status = factory.out.reset().decimal(head.status);
        headers.header(":status", status.buffer, 0, status.position);
        for (int i = 0; i < head.count; i++)
        {
            final int nameOffset = head.nameOffsets[i];
            final int nameLength = head.nameLengths[i];
            if (!Http1Server.isHopByHop(buffer, nameOffset, nameLength))
            {
                headers.header(buffer, nameOffset, nameLength, buffer, head.valueOffsets[i], head.valueLengths[i]);
            }
        }
        final int length = headers.end();
        if (length < 0)
        {
            return false;
        }
        app.doOutBegin(traceId, headers.buffer(), 0, length);
        return true;
    }

    /** Takes what the application's credit allows of the response body. */
    int onResponseData(long traceId, DirectBuffer buffer, int offset, int length)
    {
        final int taken = Math.min(length, Math.min(app.outCredit(), factory.maxFrame));
        if (taken > 0)
        {
            app.doOutData(traceId, buffer, offset, taken);
        }
        return Math.max(taken, 0);
    }

    /** The response is complete: the reply ends, with the trailers' HttpEndEx when there were any. */
    void onResponseEnd(long traceId, DirectBuffer trailers, int offset, int length)
    {
        connection = null;
        factory.doEnd(app, traceId, trailers, offset, length);
        if (!sent)
        {
            // answered before the request was all sent: the rest of it has nowhere to go
            app.doInReset(traceId);
        }
        checkClosed();
    }

    /** Aborts the request both ways, and its connection, which cannot be reused. */
    void doAbortAll(long traceId)
    {
        final Http1ClientConnection aborted = connection;
        connection = null;
        if (aborted != null)
        {
            aborted.doAbort(traceId);
        }
        doAbortApp(traceId);
    }

    /** Aborts the application's stream both ways. */
    void doAbortApp(long traceId)
    {
        connection = null;
        if (requestEnded && !app.outOpened && !app.outClosed)
        {
            // the request was complete and no reply began: a Reset after its End is how the server in front learns
            // that none will come (and answers 502); StreamSide.doInReset skips a direction that has ended
            factory.doReset(app, traceId, null, 0);
        }
        app.doOutAbort(traceId);
        app.doInReset(traceId);
        checkClosed();
    }

    private void checkClosed()
    {
        if (app.closed())
        {
            factory.onClosed(this);
        }
    }
}
