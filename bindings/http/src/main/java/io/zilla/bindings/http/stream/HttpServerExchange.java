/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.bindings.http.HttpBinding;
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

/**
 * The requests of an HTTP/1.x connection, one at a time, each as an application stream to the route's exit: the
 * request's headers in an HttpBeginEx, its body as Data, its end (with trailers) as End; the exit's reply becomes the
 * response's status line, headers and body, chunked when the exit gives no content-length. The exit's reply gets the
 * credit the client gave, less what is still in flight to it, with each Data frame's chunk framing as padding. The
 * connection reuses this object (its stream side, its handler) for its next request, so that a request allocates
 * nothing.
 */
final class HttpServerExchange implements MessageConsumer
{
    final StreamSide app;
    final HttpRequestMetrics metrics;
    private final Http1Server connection;
    private final HttpServerFactory factory;
    private boolean head;
    private int minorVersion;
    private boolean keepAlive;

    boolean replyBegun;
    private boolean replyDone;
    private boolean chunked;
    private boolean bodyAllowed;

    /** An exchange of {@code connection}: it serves one request after another, from {@link #start} each time. */
    HttpServerExchange(Http1Server connection)
    {
        this.connection = connection;
        this.factory = connection.factory;
        this.app = new StreamSide(factory.frames);
        this.metrics = factory.metrics.newRequestMetrics();
    }

    /** Takes on the next request; the stream of the one before is ended both ways (see {@link #idle}). */
    HttpServerExchange start(boolean head, int minorVersion, boolean keepAlive)
    {
        app.reset();
        this.head = head;
        this.minorVersion = minorVersion;
        this.keepAlive = keepAlive;
        this.replyBegun = false;
        this.replyDone = false;
        this.chunked = false;
        this.bodyAllowed = false;
        return this;
    }

    /** Whether its last stream is closed both ways as far as this end knows, so that it may serve another request. */
    boolean idle()
    {
        return app.closed();
    }

    /** Opens the stream to the exit with the request's header list; false when the exit is not there. */
    boolean open(long traceId, long exitId, DirectBuffer extension, int length)
    {
        final boolean opened = factory.openApp(app, traceId, exitId, extension, length, this);
        if (opened)
        {
            metrics.begin(extension, length);
        }
        return opened;
    }

    // the stream is its own handler: no method reference object per stream
    @Override
    public void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        onAppMessage(msgTypeId, buffer, index, length);
    }

    private void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (!app.owns(buffer, index))
        {
            // a late frame of the request this exchange served before (a Reset crossing its End): not ours now
            return;
        }
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
        if (replyDone)
        {
            app.doInReset(traceId);
            return;
        }
        replyBegun = true;
        final OctetsFW extension = begin.extension();
        final HttpBeginExFW beginEx = extension != null && extension.sizeof() > 0
            ? factory.httpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        final HttpBeginExFW headers = beginEx != null && beginEx.typeId() == HttpBinding.TYPE_ID ? beginEx : null;

        final HttpAsciiWriter out = factory.out.reset();
        int status = 200;
        final HttpHeaderFW statusHeader = headers != null ? factory.headers.find(headers, ":status") : null;
        if (statusHeader != null)
        {
            final String16FW value = statusHeader.value();
            final long parsed = value.length() == 3 ? Http1RequestParser.digits(value.buffer(), value.valueOffset(), 3) : -1;
            status = parsed >= 100 && parsed <= 599 ? (int) parsed : 502;
        }
        metrics.status(status);
        out.text("HTTP/1.1 ").decimal(status).text(" ").text(HttpStatus.reason(status)).crlf();
        bodyAllowed = !head && status >= 200 && status != 204 && status != 304;
        boolean hasLength = false;
        if (headers != null)
        {
            final int seen = factory.headers.write(out, headers);
            hasLength = (seen & Http1HeaderEncoder.CONTENT_LENGTH) != 0;
            keepAlive &= (seen & Http1HeaderEncoder.CONNECTION_CLOSE) == 0;
        }
        if (connection.originLength >= 0)
        {
            factory.cors.response(out, connection.origin, 0, connection.originLength);
            // with no expose list, every header of the response is exposed to the page's scripts
            if (factory.cors.exposeAll() && headers != null
                && factory.headers.writeNames(out, "access-control-expose-headers: ", headers))
            {
                out.crlf();
            }
        }
        if (bodyAllowed && !hasLength)
        {
            if (minorVersion == 1)
            {
                chunked = true;
                out.text("transfer-encoding: chunked\r\n");
            }
            else
            {
                // an HTTP/1.0 client learns where the body ends from the connection's end
                keepAlive = false;
            }
        }
        if (!keepAlive)
        {
            out.text("connection: close\r\n");
            connection.closeAfterResponse = true;
        }
        else if (minorVersion == 0)
        {
            out.text("connection: keep-alive\r\n");
        }
        out.crlf();
        if (out.overflow)
        {
            factory.event(traceId, "http.response.overflow", "a response head larger than a buffer slot, 502 instead");
            replyDone = true;
            app.doInReset(traceId);
            final HttpAsciiWriter bad = connection.startLocal(502);
            connection.endLocal(traceId, bad, minorVersion, false);
            connection.onResponseComplete(traceId);
            return;
        }
        connection.doNetWriteHead(traceId, out.buffer, 0, out.position);
        doReplyWindow(traceId);
    }

    private void onAppData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!app.onInData(data.sequence(), reserved))
        {
            connection.doAbortAll(traceId);
            return;
        }
        final OctetsFW payload = data.payload();
        if (payload != null && payload.sizeof() > 0 && bodyAllowed && !replyDone)
        {
            metrics.response(payload.sizeof());
            if (chunked)
            {
                connection.doNetWriteChunk(traceId, payload.buffer(), payload.offset(), payload.sizeof());
            }
            else
            {
                connection.doNetWrite(traceId, payload.buffer(), payload.offset(), payload.sizeof());
            }
        }
        doReplyWindow(traceId);
    }

    private void onAppEnd(EndFW end)
    {
        final long traceId = end.traceId();
        app.inClosed = true;
        if (replyDone)
        {
            return;
        }
        replyDone = true;
        if (chunked)
        {
            final HttpAsciiWriter out = factory.out.reset().text("0\r\n");
            final OctetsFW extension = end.extension();
            final HttpEndExFW endEx = extension != null && extension.sizeof() > 0
                ? factory.httpEndExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
            if (endEx != null && endEx.typeId() == HttpBinding.TYPE_ID)
            {
                final int count = endEx.trailers().count();
                int offset = endEx.trailers().offset() + Integer.BYTES;
                for (int i = 0; i < count; i++)
                {
                    final HttpHeaderFW trailer = factory.headers.headerAt(endEx.buffer(), offset, endEx.limit());
                    offset = trailer.limit();
                    out.bytes(trailer.name().buffer(), trailer.name().valueOffset(), trailer.name().length()).text(": ")
                        .bytes(trailer.value().buffer(), trailer.value().valueOffset(), trailer.value().length()).crlf();
                }
            }
            out.crlf();
            connection.doNetWrite(traceId, out.buffer, 0, out.position);
        }
        metrics.finish();
        connection.onResponseComplete(traceId);
    }

    private void onAppAbort(AbortFW abort)
    {
        final long traceId = abort.traceId();
        app.inClosed = true;
        if (replyDone)
        {
            return;
        }
        replyDone = true;
        metrics.finish();
        if (!replyBegun)
        {
            final HttpAsciiWriter out = connection.startLocal(502);
            connection.endLocal(traceId, out, minorVersion, false);
            connection.onResponseComplete(traceId);
        }
        else
        {
            // the response is cut short: the client must see that it is, so the connection is aborted
            connection.doAbortAll(traceId);
        }
    }

    private void onAppWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        app.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        connection.resume(traceId);
    }

    private void onAppReset(ResetFW reset)
    {
        final long traceId = reset.traceId();
        app.outClosed = true;
        // what is left of the request body is read and dropped, and the connection ends after the response
        connection.onRequestReset(this);
        if (!replyBegun && !replyDone)
        {
            // the exit refused the request without an answer
            replyDone = true;
            metrics.finish();
            app.doInReset(traceId);
            final HttpAsciiWriter out = connection.startLocal(502);
            connection.endLocal(traceId, out, minorVersion, false);
            connection.onResponseComplete(traceId);
        }
        connection.resume(traceId);
    }

    /** Gives the exit's reply the client's credit, less what is in flight to the client, once nothing waits. */
    void doReplyWindow(long traceId)
    {
        if (!replyBegun || replyDone || connection.encoding())
        {
            return;
        }
        final StreamSide net = connection.net;
        final int padding = net.outPad + (chunked ? HttpStreamFactory.CHUNK_OVERHEAD : 0);
        final long inFlight = net.outSeq - net.outAck + connection.held();
        final long ack = Math.max(app.inAck, app.inSeq - inFlight);
        // the reply's credit (ack + max - inSeq) is the client's, even where what is in flight to the client (or held
        // for it) is more than the reply sent (a head, the response before): so that a Data frame of the reply always
        // fits the client's credit at once, with the head held before it, and its chunk is framed in place
        final int max = (int) Math.max(0, Math.min(Math.min(net.outMax, factory.maxFrame),
            net.outMax - inFlight + app.inSeq - ack));
        if (ack != app.inAck || max != app.inMax)
        {
            app.doInWindow(traceId, ack, max, padding);
        }
    }

    void doRequestEnd(long traceId, DirectBuffer trailers, int offset, int length)
    {
        if (app.outOpened)
        {
            factory.doEnd(app, traceId, trailers, offset, length);
        }
    }

    void doRequestAbort(long traceId)
    {
        metrics.finish();
        app.doOutAbort(traceId);
    }

    void doReplyReset(long traceId)
    {
        replyDone = true;
        metrics.finish();
        app.doInReset(traceId);
    }

    void doAbort(long traceId)
    {
        replyDone = true;
        metrics.finish();
        app.doOutAbort(traceId);
        app.doInReset(traceId);
    }
}
