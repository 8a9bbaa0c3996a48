/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.engine.binding.signal.Signaler.NO_CANCEL_ID;

import io.zilla.bindings.http.config.HttpOptionsConfig;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One HTTP/1.x connection of an http server: it reads requests from the network stream and opens one application
 * stream per request ({@link HttpServerExchange}), and writes each response back. Requests are taken one at a time:
 * the next request of a pipeline is read only once the response to the one before is complete, so responses go
 * out in order and the bytes of the next request wait, within the credit this connection gives, in its buffer slot.
 * Flow control is by credit both ways: the client is given what the slot can hold, the exit what the client gave.
 */
final class Http1Server implements Http1BodyDecoder.Sink, MessageConsumer, HttpNetReader.Decoder
{
    private static final int SIGNAL_TIMEOUT = 1;
    private static final int SIGNAL_FLUSH = 2;

    private static final int HEAD = 0;
    private static final int BODY = 1;
    private static final int WAIT = 2;
    private static final int DISCARD = 3;
    private static final int MAX_ORIGIN = 512;

    /**
     * What a client that starts HTTP/2 gets while HTTP/2 is not plugged in: the server's SETTINGS (empty) and a GOAWAY
     * with HTTP_1_1_REQUIRED (0xd), so that it knows to come back with HTTP/1.1.
     */
    private static final byte[] H2_REFUSAL = {
        0, 0, 0, 4, 0, 0, 0, 0, 0,
        0, 0, 8, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x0d,
    };
    private static final DirectBuffer H2_REFUSAL_BUFFER = new UnsafeBuffer(H2_REFUSAL);
    private static final DirectBuffer CONTINUE = new UnsafeBuffer("HTTP/1.1 100 Continue\r\n\r\n".getBytes());

    final HttpServerFactory factory;
    final StreamSide net;

    // made at the first request with a body, kept for the next: a connection of GETs (an event stream) holds none
    private Http1BodyDecoder body;
    private int state = HEAD;
    private final HttpNetReader reader;
    private final HttpNetWriter writer;

    private HttpServerExchange exchange;
    // the exchange this connection's requests reuse, one at a time; made at its first request
    private HttpServerExchange spareExchange;
    private boolean responsePending;
    boolean closeAfterResponse;
    private boolean closing;
    private boolean endPending;
    private boolean https;
    // one timer per connection, not one per request: a request moves the deadline, and a timer that fires before it
    // is set again for it; 0 is no deadline
    private long timerId = NO_CANCEL_ID;
    private long deadline;
    // once HTTP/2 was chosen (ALPN h2, or the prior-knowledge preface), the connection that takes every frame
    private Http2Server http2;

    // the current request's Origin when the CORS policy allows it, for its response: made at the first such request,
    // as long as that origin (grown for a longer one), so that a connection that never sends one holds no buffer
    MutableDirectBuffer origin;
    int originLength = -1;

    Http1Server(HttpServerFactory factory, MessageConsumer sender, long originId, long routedId, long initialId)
    {
        this.factory = factory;
        this.net = new StreamSide(factory.frames);
        this.writer = new HttpNetWriter(net, factory.bufferPool, factory.maxFrame, factory.chunkHead);
        this.reader = new HttpNetReader(net, factory.bufferPool, this);
        net.set(sender, originId, routedId, initialId, initialId & ~1L);
    }

    // the connection is its own handler and decoder: no method reference objects per connection
    @Override
    public void accept(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        onNetMessage(msgTypeId, buffer, index, length);
    }

    void onNetMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        if (http2 != null)
        {
            http2.onNetMessage(msgTypeId, buffer, index, length);
            return;
        }
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onNetBegin(factory.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onNetData(factory.dataRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID -> onNetEnd(factory.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onNetAbort(factory.abortRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID -> onNetWindow(factory.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onNetReset(factory.resetRO.wrap(buffer, index, index + length));
            case SignalFW.TYPE_ID -> onNetSignal(factory.signalRO.wrap(buffer, index, index + length));
            default ->
            {
                // flushes and challenges mean nothing to HTTP/1.x
            }
        }
    }

    private void onNetBegin(BeginFW begin)
    {
        final long traceId = begin.traceId();
        net.onInBegin(begin);
        net.doOutBegin(traceId, null, 0, 0);
        boolean h2 = false;
        final OctetsFW extension = begin.extension();
        if (extension != null && extension.sizeof() > 0
            && factory.tlsBeginExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit()) != null
            && factory.tlsBeginExRO.typeId() == "tls".hashCode())
        {
            https = true;
            h2 = HttpOptionsConfig.H2.equals(factory.tlsBeginExRO.alpn().asString());
        }
        doNetWindow(traceId);
        if (h2)
        {
            // ALPN settled h2
            startHttp2(traceId, null, 0, 0);
            return;
        }
        armTimer(traceId);
    }

    private void onNetData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!net.onInData(data.sequence(), reserved))
        {
            // the peer sent more than its credit: nothing it says can be trusted
            doAbortAll(traceId);
            return;
        }
        final OctetsFW payload = data.payload();
        if (payload == null || state == DISCARD)
        {
            doNetWindow(traceId);
            return;
        }
        if (!reader.onData(traceId, payload))
        {
            factory.event(traceId, "http.buffers.exhausted", "no buffer slot for a partial request, connection aborted");
            doAbortAll(traceId);
            return;
        }
        doNetWindow(traceId);
    }

    private void onNetEnd(EndFW end)
    {
        final long traceId = end.traceId();
        net.inClosed = true;
        switch (state)
        {
            case HEAD ->
            {
                if (!responsePending)
                {
                    // nothing more will come: a partial request is dropped without an answer
                    doNetEnd(traceId);
                }
                else
                {
                    closeAfterResponse = true;
                }
            }
            case WAIT, DISCARD ->
            {
            // the response, and any request pipelined behind it, are answered before the connection ends
            }
            default ->
            {
            // the client stopped in the middle of a body: the exit must not take it as complete
                if (exchange != null)
                {
                    exchange.doRequestAbort(traceId);
                }
                closeAfterResponse = true;
                state = DISCARD;
                if (!responsePending)
                {
                    doNetEnd(traceId);
                }
            }
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

    private void onNetWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        net.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        flushEncode(traceId);
        if (exchange != null && !writer.pending())
        {
            exchange.doReplyWindow(traceId);
        }
    }

    private void onNetSignal(SignalFW signal)
    {
        if (signal.signalId() == SIGNAL_FLUSH)
        {
            onFlushSignal(signal.traceId());
            return;
        }
        if (signal.signalId() != SIGNAL_TIMEOUT)
        {
            return;
        }
        final long traceId = signal.traceId();
        timerId = NO_CANCEL_ID;
        if (deadline == 0L)
        {
            return;
        }
        if (System.currentTimeMillis() < deadline)
        {
            timerId = factory.context.signaler().signalAt(deadline, net.originId, net.routedId, net.outboundId, traceId,
                SIGNAL_TIMEOUT, 0);
            return;
        }
        deadline = 0L;
        if (closing)
        {
            // the client did not close after our last response within the timeout: drop it
            doAbortAll(traceId);
        }
        else if (state == HEAD && !responsePending)
        {
            if (reader.held() > 0)
            {
                // a request began but its headers did not complete in time (a slowloris)
                refuse(traceId, 408);
            }
            else
            {
                // an idle keep-alive connection: closed without an answer
                doNetEnd(traceId);
            }
        }
    }

    // the frames that were in the ring with a response's Begin are handled: a head still held goes out on its own
    private void onFlushSignal(long traceId)
    {
        writer.releaseHeld(traceId);
        if (exchange != null && !writer.pending())
        {
            exchange.doReplyWindow(traceId);
        }
    }

    /** Reads what it can of {@code buffer}; returns how far it got. Never re-entered. */
    @Override
    public int decode(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        int progress = offset;
        loop:
        while (progress < limit)
        {
            switch (state)
            {
                case HEAD ->
                {
                    if (responsePending || closing)
                    {
                        break loop;
                    }
                    final int result = Http1RequestParser.parse(buffer, progress, limit, factory.headerListSize(),
                        factory.head);
                    if (result == Http1RequestParser.INCOMPLETE)
                    {
                        if (net.inClosed)
                        {
                            // the client closed in the middle of a request's head: it gets no answer
                            doNetEnd(traceId);
                            return limit;
                        }
                        break loop;
                    }
                    if (result == Http1RequestParser.PREFACE)
                    {
                        // prior knowledge: the bytes read so far are HTTP/2's
                        startHttp2(traceId, buffer, progress, limit);
                        return limit;
                    }
                    if (result == Http1RequestParser.NOT_HTTP)
                    {
                        drop(traceId);
                        return limit;
                    }
                    if (result < 0)
                    {
                        refuse(traceId, -result);
                        return limit;
                    }
                    if (upgradeHttp2(traceId, buffer, result, limit))
                    {
                        return limit;
                    }
                    onRequest(traceId);
                    progress = result;
                }
                case BODY ->
                {
                    final int next = body.decode(traceId, buffer, progress, limit, this);
                    if (next == progress && state == BODY)
                    {
                        break loop;
                    }
                    progress = next;
                }
                case DISCARD ->
                {
                    return limit;
                }
                default ->
                {
                    break loop;
                }
            }
        }
        return progress;
    }

    /** The exit gave credit for the request body, or a response completed: read on from what is held. */
    void resume(long traceId)
    {
        reader.decodeHeld(traceId);
        doNetWindow(traceId);
    }

    private void onRequest(long traceId)
    {
        cancelTimer();
        factory.requests.increment();
        final HttpRequestHead head = factory.head;
        // a body the client was asked to hold back may or may not follow a response made here: the connection ends
        final boolean keepAlive = head.keepAlive() && !(head.expectContinue && head.hasBody());
        originLength = -1;
        closeAfterResponse |= !keepAlive;

        if (!factory.options.versions().contains(HttpOptionsConfig.HTTP_1_1))
        {
            refuse(traceId, 505);
            return;
        }

        final HttpCors cors = factory.cors;
        if (cors.enabled() && head.origin >= 0)
        {
            final DirectBuffer buffer = head.buffer;
            final int originOffset = head.valueOffsets[head.origin];
            final int originSize = head.valueLengths[head.origin];
            final boolean allowed = cors.allowsOrigin(buffer, originOffset, originSize) && originSize <= MAX_ORIGIN;
            final int requestMethod = head.find("access-control-request-method");
            if (head.isMethod("OPTIONS") && requestMethod >= 0)
            {
                final int requestHeaders = head.find("access-control-request-headers");
                final int headersOffset = requestHeaders >= 0 ? head.valueOffsets[requestHeaders] : 0;
                final int headersLength = requestHeaders >= 0 ? head.valueLengths[requestHeaders] : 0;
                final boolean permitted = allowed
                    && cors.allowsMethod(buffer, head.valueOffsets[requestMethod], head.valueLengths[requestMethod])
                    && cors.allowsHeaders(buffer, headersOffset, headersLength);
                final HttpAsciiWriter out = startLocal(permitted ? 204 : 403);
                if (permitted)
                {
                    cors.preflight(out, buffer, originOffset, originSize, head.valueOffsets[requestMethod],
                        head.valueLengths[requestMethod], headersOffset, headersLength);
                }
                endLocal(traceId, out, head.minorVersion, keepAlive);
                startBody(traceId, head);
                return;
            }
            if (allowed)
            {
                if (origin == null || origin.capacity() < originSize)
                {
                    origin = new UnsafeBuffer(new byte[originSize]);
                }
                origin.putBytes(0, buffer, originOffset, originSize);
                originLength = originSize;
            }
        }

        final int length = requestHeaders(head);
        if (length < 0)
        {
            refuse(traceId, 431);
            return;
        }
        final HttpBeginExFW headers = factory.httpBeginExRO.wrap(factory.requestHeaders.buffer(), 0, length);
        final HttpRouter.Route route = factory.router.resolve(headers);
        if (route == null)
        {
            final HttpAsciiWriter out = startLocal(404);
            endLocal(traceId, out, head.minorVersion, keepAlive);
            startBody(traceId, head);
            return;
        }
        final DirectBuffer extension = factory.router.applyOverrides(route, headers, factory.length);
        if (factory.length[0] < 0)
        {
            refuse(traceId, 431);
            return;
        }
        if (spareExchange == null || !spareExchange.idle())
        {
            spareExchange = new HttpServerExchange(this);
        }
        exchange = spareExchange.start(head.isMethod("HEAD"), head.minorVersion, head.keepAlive());
        if (!exchange.open(traceId, route.exitId, extension, factory.length[0]))
        {
            exchange = null;
            final HttpAsciiWriter out = startLocal(502);
            endLocal(traceId, out, head.minorVersion, false);
            closeAfterResponse = true;
            startBody(traceId, head);
            return;
        }
        responsePending = true;
        if (head.expectContinue && head.hasBody())
        {
            // the exit is there to take the body: the client may send it, within the credit this connection gives
            doNetWrite(traceId, CONTINUE, 0, CONTINUE.capacity());
        }
        startBody(traceId, head);
    }

    private Http1BodyDecoder body()
    {
        if (body == null)
        {
            body = new Http1BodyDecoder(factory.trailers, factory.headerListSize());
        }
        return body;
    }

    private void startBody(long traceId, HttpRequestHead head)
    {
        if (head.chunked)
        {
            body().startChunked();
            state = BODY;
        }
        else if (head.contentLength > 0)
        {
            body().startLength(head.contentLength);
            state = BODY;
        }
        else
        {
            onBodyEnd(traceId, null, 0, 0);
        }
    }

    // the request's header list as an HttpBeginEx: pseudo-headers first, then the rest but the hop-by-hop ones
    private int requestHeaders(HttpRequestHead head)
    {
        final DirectBuffer buffer = head.buffer;
        final HttpHeaderListWriter writer = factory.requestHeaders.begin();
        writer.header(":method", buffer, head.methodOffset, head.methodLength);
        writer.header(":scheme", https ? "https" : "http");
        int pathOffset = head.targetOffset;
        int pathLength = head.targetLength;
        final int scheme = schemeLength(buffer, pathOffset, pathLength);
        if (scheme > 0)
        {
            // absolute-form (RFC 9112 section 3.2.2): its authority stands for Host
            final int authority = pathOffset + scheme;
            int slash = authority;
            while (slash < pathOffset + pathLength && buffer.getByte(slash) != '/')
            {
                slash++;
            }
            writer.header(":authority", buffer, authority, slash - authority);
            pathLength -= slash - pathOffset;
            pathOffset = slash;
        }
        else if (head.host >= 0)
        {
            writer.header(":authority", buffer, head.valueOffsets[head.host], head.valueLengths[head.host]);
        }
        if (pathLength > 0)
        {
            writer.header(":path", buffer, pathOffset, pathLength);
        }
        else
        {
            writer.header(":path", "/");
        }
        for (int i = 0; i < head.count; i++)
        {
            final int nameOffset = head.nameOffsets[i];
            final int nameLength = head.nameLengths[i];
            if (!isHopByHop(buffer, nameOffset, nameLength))
            {
                writer.header(buffer, nameOffset, nameLength, buffer, head.valueOffsets[i], head.valueLengths[i]);
            }
        }
        return writer.end();
    }

    private static int schemeLength(DirectBuffer buffer, int offset, int length)
    {
        if (length > 7 && HttpRequestHead.equalsIgnoreCase(buffer, offset, 7, "http://"))
        {
            return 7;
        }
        if (length > 8 && HttpRequestHead.equalsIgnoreCase(buffer, offset, 8, "https://"))
        {
            return 8;
        }
        return 0;
    }

    /** The headers that belong to one HTTP/1.1 connection, not to the request (RFC 9110 section 7.6.1). */
    static boolean isHopByHop(DirectBuffer buffer, int offset, int length)
    {
        return HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "host")
            || HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "connection")
            || HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "keep-alive")
            || HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "proxy-connection")
            || HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "transfer-encoding")
            || HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "upgrade")
            || HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "http2-settings")
            || HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "expect")
            || HttpRequestHead.equalsIgnoreCase(buffer, offset, length, "te");
    }

    // the body goes to the exit as far as its credit goes; a request answered here, or refused by the exit, is dropped
    @Override
    public int onBodyData(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (exchange == null || exchange.app.outClosed)
        {
            return length;
        }
        final int credit = Math.min(exchange.app.outCredit(), factory.maxFrame);
        final int forwarded = Math.min(length, credit);
        if (forwarded > 0)
        {
            exchange.metrics.request(forwarded);
            exchange.app.doOutData(traceId, buffer, offset, forwarded);
        }
        return Math.max(forwarded, 0);
    }

    @Override
    public void onBodyEnd(long traceId, DirectBuffer trailers, int offset, int length)
    {
        if (exchange != null)
        {
            exchange.doRequestEnd(traceId, trailers, offset, length);
        }
        if (responsePending)
        {
            state = WAIT;
        }
        else
        {
            nextRequest(traceId);
        }
    }

    // a malformed body: the exit's request is aborted, and the client told 400 if its response has not begun
    @Override
    public void onBodyError(long traceId)
    {
        factory.rejected.increment();
        factory.event(traceId, "http.request.rejected", "400 malformed chunked body");
        if (exchange != null)
        {
            exchange.doRequestAbort(traceId);
            if (exchange.replyBegun)
            {
                doAbortAll(traceId);
                return;
            }
            exchange.doReplyReset(traceId);
            exchange = null;
            responsePending = false;
        }
        refuse(traceId, 400);
    }

    /** The exit refused the rest of a request: if its body is still being read, the connection ends after the response. */
    void onRequestReset(HttpServerExchange reset)
    {
        if (exchange == reset && state == BODY)
        {
            closeAfterResponse = true;
        }
    }

    /** The exit's response is complete (or was answered here): the next request may be read. */
    void onResponseComplete(long traceId)
    {
        writer.releaseHeld(traceId);
        responsePending = false;
        if (closeAfterResponse)
        {
            if (state == BODY && exchange != null)
            {
                // the client's body is not all read, and will not be: the exit must not take it as complete
                exchange.doRequestAbort(traceId);
            }
            state = DISCARD;
            doNetEnd(traceId);
        }
        else if (state == WAIT)
        {
            nextRequest(traceId);
            resume(traceId);
        }
    }

    private void nextRequest(long traceId)
    {
        exchange = null;
        if (closeAfterResponse)
        {
            if (!responsePending)
            {
                state = DISCARD;
                doNetEnd(traceId);
            }
            return;
        }
        state = HEAD;
        if (net.inClosed && reader.held() == 0)
        {
            doNetEnd(traceId);
            return;
        }
        armTimer(traceId);
    }

    /** Answers a request that cannot be read with {@code status}, and closes the connection once it is written. */
    private void refuse(long traceId, int status)
    {
        factory.rejected.increment();
        factory.event(traceId, "http.request.rejected", status + " " + HttpStatus.reason(status));
        cancelTimer();
        final HttpAsciiWriter out = startLocal(status);
        endLocal(traceId, out, 1, false);
        state = DISCARD;
        doNetEnd(traceId);
    }

    /**
     * A request line whose version is not HTTP's: the peer speaks something else, an HTTP/1.1 status line would be
     * noise to it, so the connection is closed without one. An HTTP/2 client whose preface is bad is among them, and
     * RFC 9113 section 3.4 asks for exactly this: the connection closed before anything was negotiated.
     */
    private void drop(long traceId)
    {
        factory.rejected.increment();
        factory.event(traceId, "http.request.rejected", "not an HTTP/1.x request line nor the HTTP/2 preface: closed");
        cancelTimer();
        state = DISCARD;
        doNetEnd(traceId);
    }

    /** Hands the connection to HTTP/2 with what was read of it, or refuses it when the options leave h2 out. */
    private void startHttp2(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        if (!factory.options.versions().contains(HttpOptionsConfig.H2))
        {
            refuseHttp2(traceId);
            return;
        }
        cancelTimer();
        state = DISCARD;
        http2 = new Http2Server(factory, net);
        http2.start(traceId, buffer, offset, limit);
    }

    /**
     * {@code Upgrade: h2c} with HTTP2-Settings on a request without a body, when h2 is allowed: 101, and the request
     * becomes HTTP/2's stream 1 with what follows it read as HTTP/2 (RFC 7540 section 3.2). False: served as HTTP/1.1.
     */
    private boolean upgradeHttp2(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        final HttpRequestHead head = factory.head;
        final int settings = head.find("http2-settings");
        // h2c is for cleartext only (over TLS, h2 is chosen by ALPN); an upgrade waits for no earlier response
        if (!head.upgradeH2c || https || head.hasBody() || settings < 0 || head.minorVersion != 1 || closeAfterResponse
            || encoding() || !factory.options.versions().contains(HttpOptionsConfig.H2))
        {
            return false;
        }
        final byte[] payload = Http2Server.upgradeSettings(head.buffer, head.valueOffsets[settings],
            head.valueLengths[settings]);
        final int length = payload != null ? requestHeaders(head) : -1;
        if (length < 0)
        {
            return false;
        }
        cancelTimer();
        state = DISCARD;
        http2 = new Http2Server(factory, net);
        http2.startUpgraded(traceId, payload, length, head.isMethod("HEAD"), head.isMethod("OPTIONS"), buffer, offset,
            limit);
        return true;
    }

    private void refuseHttp2(long traceId)
    {
        factory.rejected.increment();
        factory.event(traceId, "http.h2.refused", "HTTP/2 is not enabled: GOAWAY HTTP_1_1_REQUIRED");
        cancelTimer();
        doNetWrite(traceId, H2_REFUSAL_BUFFER, 0, H2_REFUSAL.length);
        state = DISCARD;
        doNetEnd(traceId);
    }

    /** Starts a response the binding makes itself: the status line. */
    HttpAsciiWriter startLocal(int status)
    {
        return factory.out.reset().text("HTTP/1.1 ").decimal(status).text(" ").text(HttpStatus.reason(status)).crlf();
    }

    /** Completes a response the binding makes itself, without a body, and writes it. */
    void endLocal(long traceId, HttpAsciiWriter out, int minorVersion, boolean keepAlive)
    {
        out.text("content-length: 0\r\n");
        if (!keepAlive)
        {
            out.text("connection: close\r\n");
            closeAfterResponse = true;
        }
        else if (minorVersion == 0)
        {
            out.text("connection: keep-alive\r\n");
        }
        out.crlf();
        doNetWrite(traceId, out.buffer, 0, out.position);
    }

    /** Writes to the client now if its credit allows and nothing waits before, else after what waits. */
    void doNetWrite(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (!writer.write(traceId, buffer, offset, length))
        {
            onWriteExhausted(traceId);
        }
    }

    /**
     * Writes a response head with what follows it: it is held until the body's first bytes or the response's end, so
     * that both go to the client in one write, or until the frames in the ring with it are handled (a signal that
     * comes after them), so that a reply whose body comes later does not hold its head back.
     */
    void doNetWriteHead(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (!writer.hold(traceId, buffer, offset, length))
        {
            onWriteExhausted(traceId);
            return;
        }
        factory.context.signaler().signalNow(net.originId, net.routedId, net.outboundId, traceId, SIGNAL_FLUSH, 0);
    }

    /** The bytes held for the client, waiting for credit or for the bytes that go with them. */
    int held()
    {
        return writer.held();
    }

    /** Writes a chunk of a chunked response body, its framing around it, as {@link #doNetWrite} writes bytes. */
    void doNetWriteChunk(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (!writer.writeChunk(traceId, buffer, offset, length))
        {
            onWriteExhausted(traceId);
        }
    }

    private void onWriteExhausted(long traceId)
    {
        factory.event(traceId, "http.buffers.exhausted", "no room for bytes beyond the client's credit, connection aborted");
        doAbortAll(traceId);
    }

    /** Whether bytes wait for the client's credit. */
    boolean encoding()
    {
        return writer.pending();
    }

    private void flushEncode(long traceId)
    {
        writer.flush(traceId);
        if (endPending && !writer.pending())
        {
            endPending = false;
            net.doOutEnd(traceId);
            checkClosed();
        }
    }

    /** Ends the response direction once all that waits is written; the input is read and dropped until it closes. */
    void doNetEnd(long traceId)
    {
        if (!closing)
        {
            closing = true;
            endPending = true;
            state = DISCARD;
            releaseDecodeSlot();
            writer.releaseHeld(traceId);
            flushEncode(traceId);
            // a client that does not close in turn is dropped after the header timeout
            armTimer(traceId);
        }
        doNetWindow(traceId);
        checkClosed();
    }

    private void doNetWindow(long traceId)
    {
        if (http2 == null)
        {
            reader.doWindow(traceId);
        }
    }

    /** Aborts the connection and the exchange it serves, both ways. */
    void doAbortAll(long traceId)
    {
        if (http2 != null)
        {
            http2.doAbortAll(traceId);
            return;
        }
        // a head held for its body goes first, as it would have without the hold: the client sees the response cut short
        writer.releaseHeld(traceId);
        if (exchange != null)
        {
            exchange.doAbort(traceId);
            exchange = null;
        }
        responsePending = false;
        state = DISCARD;
        closing = true;
        endPending = false;
        net.doOutAbort(traceId);
        net.doInReset(traceId);
        checkClosed();
    }

    private void armTimer(long traceId)
    {
        deadline = System.currentTimeMillis() + factory.options.limits().headerTimeout();
        if (timerId == NO_CANCEL_ID)
        {
            timerId = factory.context.signaler().signalAt(deadline, net.originId, net.routedId, net.outboundId, traceId,
                SIGNAL_TIMEOUT, 0);
        }
    }

    // the timer stays set, to be used by the next deadline; one that fires without a deadline does nothing
    private void cancelTimer()
    {
        deadline = 0L;
    }

    private void stopTimer()
    {
        deadline = 0L;
        if (timerId != NO_CANCEL_ID)
        {
            factory.context.signaler().cancel(timerId);
            timerId = NO_CANCEL_ID;
        }
    }

    private void releaseDecodeSlot()
    {
        reader.release();
    }

    private void checkClosed()
    {
        if (net.closed() || net.outClosed && net.inClosed)
        {
            stopTimer();
            releaseDecodeSlot();
            writer.release();
            factory.onClosed(net.inboundId);
        }
    }
}
