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
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One request of an http client: the application stream's HttpBeginEx becomes an HTTP/1.1 request head on a
 * connection of its own to the route's exit, its Data the body (as it is under a content-length, else chunked), and
 * the server's response the stream's reply: an HttpBeginEx with {@code :status} and the headers, then the body,
 * de-chunked. Credit both ways comes from the other side, as in the server.
 */
final class Http1Client implements Http1BodyDecoder.Sink
{
    private static final String CHUNKED_TAIL = "transfer-encoding: chunked\r\n\r\n";

    private static final int RESPONSE_HEAD = 0;
    private static final int RESPONSE_BODY = 1;
    private static final int DONE = 2;

    private final HttpClientFactory factory;
    private final StreamSide app;
    private final StreamSide net;
    private final HttpNetWriter writer;
    private final Http1BodyDecoder body;

    private boolean headComplete;
    private boolean chunked;
    private boolean headRequest;
    private int state = RESPONSE_HEAD;
    private final HttpNetReader reader;

    Http1Client(HttpClientFactory factory, MessageConsumer sender, long originId, long routedId, long initialId)
    {
        this.factory = factory;
        this.app = new StreamSide(factory.frames);
        app.set(sender, originId, routedId, initialId, initialId & ~1L);
        this.net = new StreamSide(factory.frames);
        this.writer = new HttpNetWriter(net, factory.bufferPool, factory.maxFrame);
        this.body = new Http1BodyDecoder(factory.trailers, factory.bufferPool.slotCapacity());
        this.reader = new HttpNetReader(net, factory.bufferPool, this::decode);
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

    private void onNetMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onNetBegin(factory.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onNetData(factory.dataRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID -> onNetEnd(factory.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onNetAbort(factory.abortRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID -> onNetWindow(factory.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onNetReset(factory.resetRO.wrap(buffer, index, index + length));
            default ->
            {
                // flushes, signals and challenges mean nothing here
            }
        }
    }

    private void onAppBegin(BeginFW begin)
    {
        final long traceId = begin.traceId();
        app.onInBegin(begin);
        final OctetsFW extension = begin.extension();
        final HttpBeginExFW request = extension != null && extension.sizeof() > 0
            ? factory.httpBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (request == null || request.typeId() != HttpBinding.TYPE_ID)
        {
            factory.event(traceId, "http.request.invalid", "a stream without an HttpBeginEx, reset");
            doAbortAll(traceId);
            return;
        }
        final HttpRouter.Route route = factory.router.resolve(request);
        if (route == null)
        {
            factory.event(traceId, "http.route.missing", "no route for the request, reset");
            doAbortAll(traceId);
            return;
        }
        final DirectBuffer headers = factory.router.applyOverrides(route, request, factory.length);
        final HttpBeginExFW requestHeaders = factory.httpBeginExRO.wrap(headers, 0, factory.length[0]);
        if (!encodeHead(requestHeaders))
        {
            factory.event(traceId, "http.request.invalid", "a request without :method or :path, or too large, reset");
            doAbortAll(traceId);
            return;
        }

        final long exitId = route.exitId;
        final long initialId = factory.context.supplyInitialId(exitId);
        final long replyId = factory.context.supplyReplyId(initialId);
        final MutableDirectBuffer writeBuffer = factory.context.writeBuffer();
        final BeginFW netBegin = factory.beginRW.wrap(writeBuffer, 0, writeBuffer.capacity())
            .originId(factory.binding.id()).routedId(exitId).streamId(initialId)
            .sequence(0).acknowledge(0).maximum(0)
            .traceId(traceId)
            .build();
        final MessageConsumer exit = factory.context.newStream(BeginFW.TYPE_ID, netBegin.buffer(), netBegin.offset(),
            netBegin.sizeof(), this::onNetMessage);
        if (exit == null)
        {
            doAbortAll(traceId);
            return;
        }
        net.set(exit, factory.binding.id(), exitId, replyId, initialId);
        net.outOpened = true;
        // the head waits for the connection's first credit
        final HttpAsciiWriter out = factory.out;
        if (!writer.write(traceId, out.buffer, 0, out.position))
        {
            doAbortAll(traceId);
        }
    }

    // the request line and headers into factory.out; the empty line too when a content-length frames the body
    private boolean encodeHead(HttpBeginExFW headers)
    {
        final HttpHeaderFW method = factory.headers.find(headers, ":method");
        final HttpHeaderFW path = factory.headers.find(headers, ":path");
        if (method == null || path == null)
        {
            return false;
        }
        final HttpAsciiWriter out = factory.out.reset();
        final String16FW methodValue = factory.headers.find(headers, ":method").value();
        headRequest = HttpRequestHead.equalsAscii(methodValue.buffer(), methodValue.valueOffset(), methodValue.length(),
            "HEAD");
        out.bytes(methodValue.buffer(), methodValue.valueOffset(), methodValue.length()).text(" ");
        final String16FW pathValue = factory.headers.find(headers, ":path").value();
        out.bytes(pathValue.buffer(), pathValue.valueOffset(), pathValue.length()).text(" HTTP/1.1\r\n");
        final HttpHeaderFW authority = factory.headers.find(headers, ":authority");
        if (authority != null)
        {
            final String16FW value = authority.value();
            out.text("host: ").bytes(value.buffer(), value.valueOffset(), value.length()).crlf();
        }
        final boolean hasLength = (factory.headers.write(out, headers) & Http1HeaderEncoder.CONTENT_LENGTH) != 0;
        // one connection per request, for now
        out.text("connection: close\r\n");
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
        if (!app.inWithin(data.sequence(), reserved))
        {
            doAbortAll(traceId);
            return;
        }
        app.inSeq += reserved;
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
        if (!writer.write(traceId, out.buffer, 0, out.position))
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
        if (!writer.write(traceId, out.buffer, 0, out.position))
        {
            doAbortAll(traceId);
        }
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
        final long traceId = window.traceId();
        app.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        reader.decodeHeld(traceId);
        doNetWindow(traceId);
    }

    private void onNetBegin(BeginFW begin)
    {
        net.onInBegin(begin);
        doNetWindow(begin.traceId());
    }

    private void onNetWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        net.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        writer.flush(traceId);
        doAppWindow(traceId);
    }

    // the request body gets the connection's credit, less what is in flight, with room for its framing
    private void doAppWindow(long traceId)
    {
        if (writer.pending() || app.inClosed)
        {
            return;
        }
        final int framing = headComplete && !chunked ? 0 : HttpStreamFactory.CHUNK_OVERHEAD + HttpStreamFactory.FRAMING_TAIL;
        final int padding = net.outPad + framing;
        final int max = Math.min(net.outMax, factory.maxFrame);
        final long ack = Math.max(app.inAck, app.inSeq - (net.outSeq - net.outAck));
        if (ack != app.inAck || max != app.inMax)
        {
            app.doInWindow(traceId, ack, max, padding);
        }
    }

    private void onNetData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!net.inWithin(data.sequence(), reserved))
        {
            doAbortAll(traceId);
            return;
        }
        net.inSeq += reserved;
        final OctetsFW payload = data.payload();
        if (payload == null || state == DONE)
        {
            doNetWindow(traceId);
            return;
        }
        if (!reader.onData(traceId, payload))
        {
            doAbortAll(traceId);
            return;
        }
        doNetWindow(traceId);
    }

    private int decode(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        int progress = offset;
        while (progress < limit && state != DONE)
        {
            if (state == RESPONSE_HEAD)
            {
                final HttpRequestHead head = factory.head;
                final int result = Http1RequestParser.parseResponse(buffer, progress, limit,
                    factory.bufferPool.slotCapacity(), head);
                if (result == Http1RequestParser.INCOMPLETE)
                {
                    break;
                }
                if (result < 0)
                {
                    factory.event(traceId, "http.response.invalid", "a malformed response, aborted");
                    doAbortAll(traceId);
                    return limit;
                }
                progress = result;
                if (head.status >= 100 && head.status < 200)
                {
                    // an interim response (100 Continue): the final one follows
                    continue;
                }
                onResponseHead(traceId, head);
            }
            else
            {
                final int next = body.decode(traceId, buffer, progress, limit, this);
                if (next == progress && state == RESPONSE_BODY)
                {
                    break;
                }
                progress = next;
            }
        }
        // once the response is complete, whatever follows is dropped
        return state == DONE ? limit : progress;
    }

    private void onResponseHead(long traceId, HttpRequestHead head)
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
            doAbortAll(traceId);
            return;
        }
        app.doOutBegin(traceId, headers.buffer(), 0, length);
        state = RESPONSE_BODY;
        if (headRequest || head.status == 204 || head.status == 304)
        {
            onBodyEnd(traceId, null, 0, 0);
        }
        else if (head.chunked)
        {
            body.startChunked();
        }
        else if (head.contentLength >= 0)
        {
            if (head.contentLength == 0)
            {
                onBodyEnd(traceId, null, 0, 0);
            }
            else
            {
                body.startLength(head.contentLength);
            }
        }
        else
        {
            body.startUntilClose();
        }
    }

    @Override
    public int onBodyData(long traceId, DirectBuffer buffer, int offset, int length)
    {
        final int taken = Math.min(length, Math.min(app.outCredit(), factory.maxFrame));
        if (taken > 0)
        {
            app.doOutData(traceId, buffer, offset, taken);
        }
        return Math.max(taken, 0);
    }

    @Override
    public void onBodyEnd(long traceId, DirectBuffer trailers, int offset, int length)
    {
        state = DONE;
        if (trailers != null && app.outOpened && !app.outClosed)
        {
            final MutableDirectBuffer writeBuffer = factory.context.writeBuffer();
            final EndFW end = factory.endRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(app.originId).routedId(app.routedId).streamId(app.outboundId)
                .sequence(app.outSeq).acknowledge(app.outAck).maximum(app.outMax)
                .traceId(traceId)
                .extension(trailers, offset, length)
                .build();
            app.target.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
            app.outClosed = true;
        }
        else
        {
            app.doOutEnd(traceId);
        }
        // the response is complete: this connection served its one request, and the server closes it in turn
        releaseDecodeSlot();
        net.doOutEnd(traceId);
        checkClosed();
    }

    @Override
    public void onBodyError(long traceId)
    {
        factory.event(traceId, "http.response.invalid", "a response body cut short or malformed, aborted");
        doAbortAll(traceId);
    }

    private void onNetEnd(EndFW end)
    {
        final long traceId = end.traceId();
        net.inClosed = true;
        if (state == RESPONSE_BODY)
        {
            reader.decodeHeld(traceId);
            body.onClose(traceId, this);
        }
        else if (state == RESPONSE_HEAD)
        {
            factory.event(traceId, "http.response.missing", "the connection ended before a response");
            doAbortAll(traceId);
        }
        checkClosed();
    }

    private void onNetAbort(AbortFW abort)
    {
        net.inClosed = true;
        doAbortAll(abort.traceId());
    }

    private void onNetReset(ResetFW reset)
    {
        net.outClosed = true;
        doAbortAll(reset.traceId());
    }

    private void doNetWindow(long traceId)
    {
        reader.doWindow(traceId);
    }

    /** Aborts the request both ways: to the application and to the server. */
    void doAbortAll(long traceId)
    {
        state = DONE;
        app.doOutAbort(traceId);
        app.doInReset(traceId);
        net.doOutAbort(traceId);
        net.doInReset(traceId);
        checkClosed();
    }

    private void releaseDecodeSlot()
    {
        reader.release();
    }

    private void checkClosed()
    {
        if (app.closed() && net.closed())
        {
            releaseDecodeSlot();
            writer.release();
            factory.onClosed(app.inboundId);
        }
    }
}
