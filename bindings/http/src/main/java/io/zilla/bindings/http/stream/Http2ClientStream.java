/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.CANCEL;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FLOW_CONTROL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.INTERNAL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.NO_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.STREAM_CLOSED;

import io.zilla.bindings.http.HttpBinding;
import io.zilla.bindings.http.codec.http2.Http2DataFW;
import io.zilla.bindings.http.codec.http2.Http2ErrorCode;
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
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpEndExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One request of an http client over HTTP/2 ({@link Http2ClientConnection}): the application stream's HttpBeginEx
 * becomes a HEADERS block on a stream of its own, its Data DATA frames within the credit the connection hands out,
 * its End END_STREAM (an HttpEndEx's trailers as a last HEADERS); the response's HEADERS become the reply's Begin
 * with {@code :status} and the headers (as HTTP/1.1's client writes them), its DATA the reply's Data within the
 * application's credit (which is this stream's receive window), its trailers the reply End's HttpEndEx. A stream the
 * server resets, or that fails with the connection, is reset toward the application with an HttpResetEx of the
 * HTTP/2 error code.
 */
final class Http2ClientStream implements Http2Shared.Sender
{
    final StreamSide app;
    /** What the server lets us send on this stream (may go negative when it lowers SETTINGS_INITIAL_WINDOW_SIZE). */
    long sendWindow;
    int id;

    private final HttpClientFactory factory;
    private Http2ClientConnection connection;

    // the request: where its header list waits for the connection, whether End came, whether END_STREAM went
    private int queuedAt;
    private int queuedLength;
    private boolean requestEnded;
    private boolean requestDone;
    private MutableDirectBuffer requestTrailers;
    private int requestTrailersLength;
    private long credit;

    // the response: what the server may still send, what waits for the application's credit
    private long receiveWindow;
    private boolean responseBegun;
    private boolean responseEnded;
    private boolean responseDone;
    private final Http2HeldBody body;
    private MutableDirectBuffer trailers;
    private int trailersLength = -1;
    private boolean closed;
    private boolean requestReset;

    Http2ClientStream(HttpClientFactory factory, MessageConsumer sender, long originId, long routedId, long initialId)
    {
        this.factory = factory;
        this.app = new StreamSide(factory.frames);
        this.body = new Http2HeldBody(factory.bufferPool, factory.maxFrame);
        app.set(sender, originId, routedId, initialId, initialId & ~1L);
    }

    void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
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
        final HttpRouter.Route route = factory.resolve(traceId, begin);
        if (route == null)
        {
            doFail(traceId, NO_ERROR);
            return;
        }
        final HttpBeginExFW headers = factory.httpBeginExRO;
        submit(traceId, route.exitId, headers.buffer(), headers.offset(), headers.sizeof());
    }

    private void submit(long traceId, long exitId, DirectBuffer headers, int offset, int length)
    {
        connection = factory.acquireHttp2(traceId, exitId);
        if (connection == null)
        {
            doFail(traceId, NO_ERROR);
            return;
        }
        connection.submit(traceId, this, headers, offset, length);
    }

    /** The connection this waited on went away before it started: it goes to another one for the same exit. */
    void retry(long traceId, long exitId, DirectBuffer headers, int offset, int length)
    {
        connection = null;
        submit(traceId, exitId, headers, offset, length);
    }

    /** Where the request's header list waits in its connection's queue buffer. */
    void queued(int offset, int length)
    {
        queuedAt = offset;
        queuedLength = length;
    }

    int queuedAt()
    {
        return queuedAt;
    }

    int queuedLength()
    {
        return queuedLength;
    }

    /** The stream has its id and the server's window; returns whether its HEADERS end it (the request had ended). */
    boolean started(int streamId, long initialWindow)
    {
        this.id = streamId;
        this.sendWindow = initialWindow;
        final boolean endStream = requestEnded && requestTrailers == null;
        requestDone = endStream;
        return endStream;
    }

    /** The HEADERS went out: trailers that came while it waited follow. */
    void afterStart(long traceId)
    {
        if (requestEnded && !requestDone)
        {
            writeRequestEnd(traceId);
        }
    }

    boolean responseBegun()
    {
        return responseBegun;
    }

    boolean responseEnded()
    {
        return responseEnded;
    }

    private void onAppData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (id == 0 || !app.onInData(data.sequence(), reserved))
        {
            cancel(traceId, INTERNAL_ERROR);
            return;
        }
        if (closed || requestDone)
        {
            return;
        }
        credit -= reserved;
        connection.granted -= reserved;
        final OctetsFW payload = data.payload();
        if (payload != null && payload.sizeof() > 0)
        {
            final int length = payload.sizeof();
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
        requestEnded = true;
        final OctetsFW extension = end.extension();
        final HttpEndExFW endEx = extension != null && extension.sizeof() > 0
            ? factory.httpEndExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) : null;
        if (endEx != null && endEx.typeId() == HttpBinding.TYPE_ID && endEx.trailers().count() > 0)
        {
            // rare: kept in a buffer of its own, the stream may not have started yet
            requestTrailers = new UnsafeBuffer(new byte[endEx.sizeof()]);
            requestTrailers.putBytes(0, endEx.buffer(), endEx.offset(), endEx.sizeof());
            requestTrailersLength = endEx.sizeof();
        }
        if (id != 0 && !closed)
        {
            writeRequestEnd(traceId);
        }
    }

    private void writeRequestEnd(long traceId)
    {
        requestDone = true;
        releaseCredit();
        if (requestTrailers != null)
        {
            final HttpEndExFW endEx = factory.httpEndExRO.wrap(requestTrailers, 0, requestTrailersLength);
            if (!connection.writeTrailers(traceId, id, endEx))
            {
                connection.streamError(traceId, id, INTERNAL_ERROR);
                return;
            }
        }
        else
        {
            connection.writeData(traceId, id, null, 0, 0, true);
        }
        checkClosed(traceId);
    }

    private void onAppAbort(long traceId)
    {
        app.inClosed = true;
        cancel(traceId, CANCEL);
    }

    private void onAppReset(long traceId)
    {
        app.outClosed = true;
        cancel(traceId, CANCEL);
    }

    // the application gave up: RST_STREAM(CANCEL) if the stream is open on the wire, the application's other side reset
    private void cancel(long traceId, int code)
    {
        if (closed)
        {
            return;
        }
        if (id == 0)
        {
            if (connection != null)
            {
                connection.withdraw(this);
            }
            doFail(traceId, NO_ERROR);
            return;
        }
        if (requestDone && responseDone)
        {
            return;
        }
        connection.writeRstStream(traceId, id, code);
        doFail(traceId, NO_ERROR);
        connection.onStreamClosed(traceId, this);
    }

    private void onAppWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        app.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        if (closed)
        {
            return;
        }
        body.flush(app, traceId);
        if (responseEnded)
        {
            flushResponseEnd(traceId);
        }
        else
        {
            updateReceiveWindow(traceId);
        }
    }

    /** The response's head (interim ones were skipped): the reply begins with {@code :status} and the headers. */
    void onResponseHeaders(long traceId, DirectBuffer headers, int length, boolean endStream)
    {
        responseBegun = true;
        app.doOutBegin(traceId, headers, 0, length);
        if (endStream)
        {
            responseEnded = true;
            flushResponseEnd(traceId);
        }
    }

    void onResponseTrailers(long traceId, DirectBuffer buffer, int length)
    {
        responseEnded = true;
        // rare: kept until the body before them has gone to the application
        trailers = new UnsafeBuffer(new byte[length]);
        trailers.putBytes(0, buffer, 0, length);
        trailersLength = length;
        flushResponseEnd(traceId);
    }

    void onData(long traceId, Http2DataFW data)
    {
        final int flow = data.flowControlled();
        final int length = data.dataLength();
        if (!responseBegun)
        {
            connection.streamError(traceId, id, PROTOCOL_ERROR);
            return;
        }
        if (responseEnded)
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
        responseEnded = data.endStream();
        deliver(traceId, data.buffer(), data.dataOffset(), length);
        if (closed)
        {
            return;
        }
        if (responseEnded)
        {
            flushResponseEnd(traceId);
        }
        else
        {
            updateReceiveWindow(traceId);
        }
    }

    // the body goes to the application as far as its credit goes; the rest (beyond it by the padding of the Data of
    // many small frames, which the stream's window did not count) waits in a slot
    private void deliver(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (length > 0 && !body.deliver(app, traceId, buffer, offset, length))
        {
            factory.event(traceId, "http.buffers.exhausted", "no buffer slot for the response body of stream " + id);
            connection.streamError(traceId, id, INTERNAL_ERROR);
        }
    }

    private void flushResponseEnd(long traceId)
    {
        if (body.held() == 0 && !responseDone)
        {
            responseDone = true;
            factory.doEnd(app, traceId, trailers, 0, Math.max(trailersLength, 0));
            if (!requestDone)
            {
                // answered before the request was all sent: the rest of it has nowhere to go
                requestDone = true;
                releaseCredit();
                app.doInReset(traceId);
                connection.writeRstStream(traceId, id, NO_ERROR);
            }
            checkClosed(traceId);
        }
    }

    // the server may send what the application can take beyond what waits; told when half of it is used
    private void updateReceiveWindow(long traceId)
    {
        if (responseEnded || closed)
        {
            return;
        }
        final long desired = Math.min(Math.max(app.outCredit(), 0), factory.bufferPool.slotCapacity()) - body.held();
        if (desired > receiveWindow && receiveWindow <= desired / 2)
        {
            connection.writeWindowUpdate(traceId, id, (int) (desired - receiveWindow));
            receiveWindow = desired;
        }
    }

    @Override
    public long addSendWindow(long delta)
    {
        sendWindow += delta;
        return sendWindow;
    }

    /** Grants the application up to {@code room} more credit for its request body, at most {@code max} in all. */
    @Override
    public long grant(long traceId, long room, int max, int padding)
    {
        if (requestDone || closed || !app.inOpened || app.inClosed)
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

    /** RST_STREAM from the server: the request is reset and the reply aborted, with the code in an HttpResetEx. */
    void onRstStream(long traceId, int code)
    {
        if (code != NO_ERROR || !responseDone)
        {
            factory.event(traceId, "http.h2.stream.reset", "the upstream reset stream " + id + " "
                + Http2ErrorCode.name(code));
        }
        if (responseDone && code == NO_ERROR)
        {
            // the response is whole: the server wants no more of the request (RFC 9113 8.1)
            requestDone = true;
            releaseCredit();
            app.doInReset(traceId);
            closed = true;
            return;
        }
        doFail(traceId, code);
    }

    /**
     * The stream fails: the request is reset (with an HttpResetEx of {@code code} when there is one) and the reply
     * aborted, unless done.
     */
    void doFail(long traceId, int code)
    {
        closed = true;
        releaseCredit();
        body.clear();
        if (code != NO_ERROR)
        {
            final MutableDirectBuffer extension = factory.resetExtension;
            final int length = factory.httpResetExRW.wrap(extension, 0, extension.capacity())
                .typeId(HttpBinding.TYPE_ID).error(code).status(0).build().sizeof();
            resetRequest(traceId, extension, length);
        }
        else
        {
            resetRequest(traceId, null, 0);
        }
        if (!responseDone)
        {
            responseDone = true;
            app.doOutAbort(traceId);
        }
        requestDone = true;
    }

    // a Reset of the request even after its End: that is how the application learns that no reply will come
    private void resetRequest(long traceId, DirectBuffer extension, int length)
    {
        if (app.inOpened && !requestReset)
        {
            requestReset = true;
            factory.doReset(app, traceId, extension, length);
        }
    }

    private void checkClosed(long traceId)
    {
        if (!closed && requestDone && responseDone)
        {
            closed = true;
            body.clear();
            connection.onStreamClosed(traceId, this);
        }
    }

    private void releaseCredit()
    {
        if (connection != null)
        {
            connection.granted -= credit;
        }
        credit = 0;
    }
}
