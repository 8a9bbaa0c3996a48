/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;

/**
 * One HTTP/1.1 connection of an http client to an exit (a tcp client): it carries one request at a time
 * ({@link Http1ClientRequest}) and reads its response, then goes back to the factory's idle connections for that exit
 * when the response kept it alive, or closes. Requests are not pipelined: a connection is reused only once idle.
 */
final class Http1ClientConnection implements Http1BodyDecoder.Sink
{
    private static final int IDLE = 0;
    private static final int RESPONSE_HEAD = 1;
    private static final int RESPONSE_BODY = 2;
    private static final int CLOSED = 3;

    final StreamSide net;
    final long exitId;
    private final HttpClientFactory factory;
    private final HttpNetWriter writer;
    private final HttpNetReader reader;
    private final Http1BodyDecoder body;

    private Http1ClientRequest request;
    private int state = IDLE;
    private boolean keepAlive;

    Http1ClientConnection(HttpClientFactory factory, long exitId)
    {
        this.factory = factory;
        this.exitId = exitId;
        this.net = new StreamSide(factory.frames);
        this.writer = new HttpNetWriter(net, factory.bufferPool, factory.maxFrame, factory.chunkHead);
        this.reader = new HttpNetReader(net, factory.bufferPool, this::decode);
        // limits.header-list-size bounds a response's head and its trailers, as it bounds a request's at a server
        this.body = new Http1BodyDecoder(factory.trailers, factory.headerListSize());
    }

    /** Opens the connection's stream to the exit; false when the exit is not there. */
    boolean open(long traceId)
    {
        if (!factory.openApp(net, traceId, exitId, null, 0, this::onNetMessage))
        {
            state = CLOSED;
            return false;
        }
        return true;
    }

    /** Takes {@code request}, whose head is then written; the connection is idle or new. */
    void assign(Http1ClientRequest request)
    {
        this.request = request;
        this.state = RESPONSE_HEAD;
        this.keepAlive = true;
    }

    boolean usable()
    {
        return state == IDLE && !net.inClosed && !net.outClosed;
    }

    /** Writes request bytes, at once or after what waits for credit; false when they cannot be held. */
    boolean write(long traceId, DirectBuffer buffer, int offset, int length)
    {
        return writer.write(traceId, buffer, offset, length);
    }

    boolean writing()
    {
        return writer.pending();
    }

    /** The request cannot finish: this connection is not reused. */
    void doAbort(long traceId)
    {
        request = null;
        state = CLOSED;
        net.doOutAbort(traceId);
        net.doInReset(traceId);
        checkClosed();
    }

    /** The request's receiver gave credit: read on from what is held. */
    void resume(long traceId)
    {
        reader.decodeHeld(traceId);
        if (net.inClosed)
        {
            onNetEndDrained(traceId);
        }
        else
        {
            reader.doWindow(traceId);
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

    private void onNetBegin(BeginFW begin)
    {
        net.onInBegin(begin);
        reader.doWindow(begin.traceId());
    }

    private void onNetWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        net.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        writer.flush(traceId);
        if (request != null && !writer.pending())
        {
            request.doAppWindow(traceId);
        }
    }

    private void onNetData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!net.onInData(data.sequence(), reserved))
        {
            doAbortAll(traceId);
            return;
        }
        final OctetsFW payload = data.payload();
        if (payload != null && state != CLOSED && !reader.onData(traceId, payload))
        {
            doAbortAll(traceId);
            return;
        }
        reader.doWindow(traceId);
    }

    private int decode(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        int progress = offset;
        while (progress < limit && (state == RESPONSE_HEAD || state == RESPONSE_BODY))
        {
            if (state == RESPONSE_HEAD)
            {
                final HttpRequestHead head = factory.head;
                final int result = Http1RequestParser.parseResponse(buffer, progress, limit, factory.headerListSize(),
                    head);
                if (result == Http1RequestParser.INCOMPLETE)
                {
                    break;
                }
                if (result < 0)
                {
                    factory.event(traceId, "http.response.invalid", "a malformed response, or its head over "
                        + "header-list-size, aborted");
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
        // bytes that no request asked for (an idle connection's, a closed one's) are dropped
        return state == RESPONSE_HEAD || state == RESPONSE_BODY ? progress : limit;
    }

    private void onResponseHead(long traceId, HttpRequestHead head)
    {
        keepAlive = head.keepAlive();
        state = RESPONSE_BODY;
        if (!request.onResponseBegin(traceId, head))
        {
            doAbortAll(traceId);
            return;
        }
        if (request.head() || head.status == 204 || head.status == 304 || !head.chunked && head.contentLength == 0)
        {
            onBodyEnd(traceId, null, 0, 0);
        }
        else if (head.chunked)
        {
            body.startChunked();
        }
        else if (head.contentLength > 0)
        {
            body.startLength(head.contentLength);
        }
        else
        {
            // the body ends with the connection, which then cannot be reused
            keepAlive = false;
            body.startUntilClose();
        }
    }

    @Override
    public int onBodyData(long traceId, DirectBuffer buffer, int offset, int length)
    {
        return request.onResponseData(traceId, buffer, offset, length);
    }

    @Override
    public void onBodyEnd(long traceId, DirectBuffer trailers, int offset, int length)
    {
        final Http1ClientRequest done = request;
        request = null;
        // reused only once the whole request went out too: a request still sending its body ends the connection
        final boolean reuse = keepAlive && done.sent() && !net.inClosed && !net.outClosed;
        state = reuse ? IDLE : CLOSED;
        done.onResponseEnd(traceId, trailers, offset, length);
        if (reuse)
        {
            factory.release(this);
        }
        else
        {
            net.doOutEnd(traceId);
            checkClosed();
        }
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
            onNetEndDrained(traceId);
            return;
        }
        else if (state == RESPONSE_HEAD)
        {
            factory.event(traceId, "http.response.missing", "the connection ended before a response");
            doAbortAll(traceId);
        }
        else
        {
            // an idle connection the server closed
            state = CLOSED;
            net.doOutEnd(traceId);
        }
        checkClosed();
    }

    // the server ended while the response body was read: the body ends with it once every byte held for want of
    // the request's credit has gone on (a body that ends with the connection, or one cut short)
    private void onNetEndDrained(long traceId)
    {
        if (state == RESPONSE_BODY && reader.held() == 0)
        {
            body.onClose(traceId, this);
            checkClosed();
        }
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

    /** Aborts the connection and the request it carries, if any. */
    void doAbortAll(long traceId)
    {
        final Http1ClientRequest aborted = request;
        request = null;
        state = CLOSED;
        if (aborted != null)
        {
            aborted.doAbortApp(traceId);
        }
        net.doOutAbort(traceId);
        net.doInReset(traceId);
        checkClosed();
    }

    private void checkClosed()
    {
        if (state == CLOSED)
        {
            factory.forget(this);
        }
        if (net.closed())
        {
            reader.release();
            writer.release();
        }
    }
}
