/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.COMPRESSION_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FLOW_CONTROL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.NO_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.REFUSED_STREAM;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.STREAM_CLOSED;

import java.util.ArrayDeque;
import java.util.Arrays;

import io.zilla.bindings.http.codec.hpack.HpackDecoder;
import io.zilla.bindings.http.codec.http2.Http2ErrorCode;
import io.zilla.bindings.http.codec.http2.Http2FrameFW;
import io.zilla.bindings.http.codec.http2.Http2FrameType;
import io.zilla.bindings.http.codec.http2.Http2FrameWriter;
import io.zilla.bindings.http.codec.http2.Http2GoawayFW;
import io.zilla.bindings.http.codec.http2.Http2HeadersFW;
import io.zilla.bindings.http.codec.http2.Http2Preface;
import io.zilla.bindings.http.codec.http2.Http2Settings;
import io.zilla.bindings.http.codec.http2.Http2SettingsFW;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpEndExFW;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * One HTTP/2 connection of an http client to an exit (a tcp client), by prior knowledge (h2c, RFC 9113 3.3): the
 * preface and SETTINGS, PING, GOAWAY, both connection windows, and many requests at once ({@link Http2ClientStream},
 * odd stream ids). Requests beyond the server's SETTINGS_MAX_CONCURRENT_STREAMS wait in this connection's queue (their
 * header lists in one buffer of the connection) until a stream closes; so do the first requests, until the server's
 * SETTINGS say how many it takes. One connection per exit and worker keeps one HPACK context and is what RFC 9113 9.1
 * asks of a client.
 *
 * <p>Flow control, receiving: we announce SETTINGS_INITIAL_WINDOW_SIZE 0, so that the server sends a stream's DATA
 * only as far as that stream's application gave credit (WINDOW_UPDATE as it does); the connection window is opened
 * wide at once and given back as DATA arrives, the streams' windows bounding what comes. Sending: the server's
 * windows and the network's credit are handed out to the requests' applications as zilla credit, round robin, one
 * DATA frame's worth per stream at a time, as the server does.
 */
final class Http2ClientConnection extends Http2Connection
{
    /** The connection window we give the server: large, since each stream's window is its application's credit. */
    static final int CONNECTION_WINDOW = 1 << 24;
    /** Our own bound on streams open at once on a connection, whatever the server allows. */
    static final int MAX_STREAMS = 1024;
    private static final int LAST_STREAM_ID = 0x7fff_ffff;

    final HttpClientFactory factory;
    final long exitId;

    private final HpackDecoder decoder;
    private final Int2ObjectHashMap<Http2ClientStream> streams = new Int2ObjectHashMap<>();
    private final ArrayDeque<Http2ClientStream> waiting = new ArrayDeque<>();
    private final ExpandableArrayBuffer queued = new ExpandableArrayBuffer(1024);
    private int queuedLimit;
    private Http2ClientStream[] active = new Http2ClientStream[16];
    private int activeCount;

    private int nextStreamId = 1;
    private boolean settingsReceived;
    private boolean goawayReceived;
    private boolean closing;
    private boolean closed;

    private long receiveWindow = CONNECTION_WINDOW;
    private long consumed;

    // a header block being gathered (HEADERS without END_HEADERS, then CONTINUATION)
    private final Http2BlockGatherer blocks;

    Http2ClientConnection(HttpClientFactory factory, long exitId)
    {
        super(factory, new StreamSide(factory.frames));
        this.factory = factory;
        this.exitId = exitId;
        this.decoder = new HpackDecoder((int) Http2Settings.DEFAULT_HEADER_TABLE_SIZE, factory.headerListSize());
        // the server's cap on CONTINUATION frames guards against an upstream that floods them too
        this.blocks = new Http2BlockGatherer(this, factory.bufferPool, this::onBlock, factory.floods.maxContinuations());
    }

    /** Opens the connection's stream to the exit and writes the preface; false when the exit is not there. */
    boolean open(long traceId)
    {
        if (!factory.openApp(net, traceId, exitId, null, 0, this::onNetMessage))
        {
            closed = true;
            closing = true;
            return false;
        }
        final MutableDirectBuffer frame = shared.frame;
        int limit = Http2Preface.write(frame, 0);
        final int settings = limit;
        limit += Http2FrameFW.HEADER_SIZE;
        limit = Http2FrameWriter.setting(frame, limit, Http2Settings.ENABLE_PUSH, 0);
        limit = Http2FrameWriter.setting(frame, limit, Http2Settings.INITIAL_WINDOW_SIZE, 0);
        limit = Http2FrameWriter.setting(frame, limit, Http2Settings.MAX_HEADER_LIST_SIZE, factory.headerListSize());
        Http2FrameWriter.header(frame, settings, limit - settings - Http2FrameFW.HEADER_SIZE, Http2FrameType.SETTINGS, 0, 0);
        limit = Http2FrameWriter.windowUpdate(frame, limit, 0,
            CONNECTION_WINDOW - (int) Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE);
        write(traceId, frame, 0, limit);
        return true;
    }

    @Override
    boolean closing()
    {
        return closing;
    }

    /** Whether a new request may go on this connection (now or after those waiting). */
    boolean usable()
    {
        return !closing && !goawayReceived && nextStreamId < LAST_STREAM_ID - 2 * (activeCount + waiting.size());
    }

    /** Takes a request: started now when the server's limit allows and none waits before it, else queued. */
    void submit(long traceId, Http2ClientStream stream, DirectBuffer headers, int offset, int length)
    {
        if (settingsReceived && waiting.isEmpty() && activeCount < maxStreams())
        {
            start(traceId, stream, headers, offset, length);
        }
        else
        {
            // kept in the connection's queue buffer, which grows to the longest queue once and is reused after
            queued.putBytes(queuedLimit, headers, offset, length);
            stream.queued(queuedLimit, length);
            queuedLimit += length;
            waiting.addLast(stream);
        }
    }

    /** A waiting request that gave up (its application aborted): it leaves the queue. */
    void withdraw(Http2ClientStream stream)
    {
        waiting.remove(stream);
    }

    private int maxStreams()
    {
        return (int) Math.min(peer.maxConcurrentStreams(), MAX_STREAMS);
    }

    private void startWaiting(long traceId)
    {
        while (!waiting.isEmpty() && settingsReceived && !closing && !goawayReceived && activeCount < maxStreams())
        {
            final Http2ClientStream stream = waiting.pollFirst();
            start(traceId, stream, queued, stream.queuedAt(), stream.queuedLength());
        }
        if (waiting.isEmpty())
        {
            queuedLimit = 0;
        }
    }

    private void start(long traceId, Http2ClientStream stream, DirectBuffer headers, int offset, int length)
    {
        final int id = nextStreamId;
        final int blockLength = encodeRequest(factory.httpBeginExRO.wrap(headers, offset, offset + length));
        if (blockLength < 0)
        {
            factory.event(traceId, "http.request.invalid", "a request without :method or :path, or too large, reset");
            stream.doFail(traceId, Http2ErrorCode.INTERNAL_ERROR);
            return;
        }
        nextStreamId += 2;
        streams.put(id, stream);
        if (activeCount == active.length)
        {
            active = Arrays.copyOf(active, 2 * activeCount);
        }
        active[activeCount++] = stream;
        final boolean endStream = stream.started(id, peer.initialWindowSize());
        shared.writeBlock(output, traceId, id, blockLength, maxFragment(), endStream);
        stream.afterStart(traceId);
        flushGrants(traceId);
    }

    private int maxFragment()
    {
        return Math.min(peer.maxFrameSize(), Http2Shared.MAX_FRAME_PAYLOAD);
    }

    /**
     * HPACK-encodes a request's header list into the shared block: the pseudo-headers first ({@code :scheme} http when
     * the list has none, {@code :authority} from {@code host} when it has none), then the other fields but those
     * that belong to an HTTP/1.1 connection (RFC 9113 8.2.2). Returns the block's length, or -1 when {@code :method}
     * or {@code :path} is missing or the block does not fit.
     */
    private int encodeRequest(HttpBeginExFW headers)
    {
        return factory.requestEncoder.encode(encoder, shared, headers);
    }

    /** Writes the trailers of a request (an HttpEndEx's list) as a last HEADERS frame. */
    boolean writeTrailers(long traceId, int streamId, HttpEndExFW trailers)
    {
        final int blockLength = factory.requestEncoder.encodeTrailers(encoder, shared, trailers);
        if (blockLength < 0)
        {
            return false;
        }
        shared.writeBlock(output, traceId, streamId, blockLength, maxFragment(), true);
        return true;
    }

    void writeData(long traceId, int streamId, DirectBuffer buffer, int offset, int length, boolean endStream)
    {
        shared.writeData(output, traceId, streamId, buffer, offset, length, maxFragment(), endStream);
    }

    void writeWindowUpdate(long traceId, int streamId, int increment)
    {
        final int limit = Http2FrameWriter.windowUpdate(shared.frame, 0, streamId, increment);
        write(traceId, shared.frame, 0, limit);
    }

    void writeRstStream(long traceId, int streamId, int code)
    {
        final int limit = Http2FrameWriter.rstStream(shared.frame, 0, streamId, code);
        write(traceId, shared.frame, 0, limit);
    }

    private void onNetMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID ->
            {
                net.onInBegin(factory.beginRO.wrap(buffer, index, index + length));
                reader.doWindow(factory.beginRO.traceId());
            }
            case DataFW.TYPE_ID -> onNetData(factory.dataRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID ->
            {
                net.inClosed = true;
                onNetClosed(factory.endRO.wrap(buffer, index, index + length).traceId());
            }
            case AbortFW.TYPE_ID ->
            {
                net.inClosed = true;
                onNetClosed(factory.abortRO.wrap(buffer, index, index + length).traceId());
            }
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = factory.windowRO.wrap(buffer, index, index + length);
                net.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
                flush(window.traceId());
            }
            case ResetFW.TYPE_ID ->
            {
                net.outClosed = true;
                onNetClosed(factory.resetRO.wrap(buffer, index, index + length).traceId());
            }
            default ->
            {
                // flushes, signals and challenges mean nothing here
            }
        }
    }

    /** The server's side ended (End, Abort) or refused ours (Reset): every stream on it fails, the others go on. */
    private void onNetClosed(long traceId)
    {
        if (!closing && (activeCount > 0 || !waiting.isEmpty()))
        {
            factory.event(traceId, "http.h2.connection.closed", "the upstream closed with streams open, aborted");
        }
        closing = true;
        failStreams(traceId, NO_ERROR);
        endPending = false;
        net.doOutAbort(traceId);
        net.doInReset(traceId);
        checkClosed();
    }

    @Override
    int decode(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        return decodeFrames(traceId, buffer, offset, limit);
    }

    @Override
    void onFrame(long traceId, Http2FrameFW frame, int error)
    {
        final int type = frame.type();
        final int streamId = frame.streamId();
        if (blocks.expectsContinuation() && (type != Http2FrameType.CONTINUATION || streamId != blocks.streamId()))
        {
            connectionError(traceId, PROTOCOL_ERROR, "a frame between HEADERS and its CONTINUATION");
            return;
        }
        if (!settingsReceived && type != Http2FrameType.SETTINGS)
        {
            connectionError(traceId, PROTOCOL_ERROR, "the server's preface is not SETTINGS");
            return;
        }
        switch (type)
        {
            case Http2FrameType.DATA -> onData(traceId, frame, error);
            case Http2FrameType.HEADERS -> onHeaders(traceId, shared.headersRO.wrap(frame.buffer(), frame.offset(),
                frame.limit()), error);
            case Http2FrameType.CONTINUATION -> blocks.onContinuation(traceId, shared.continuationRO.wrap(frame.buffer(),
                frame.offset(), frame.limit()));
            case Http2FrameType.PRIORITY ->
            {
                if (error != NO_ERROR)
                {
                    streamError(traceId, streamId, error);
                }
            }
            case Http2FrameType.RST_STREAM -> onRstStream(traceId, streamId, frame);
            case Http2FrameType.SETTINGS -> onSettings(traceId, frame);
            case Http2FrameType.PUSH_PROMISE -> connectionError(traceId, PROTOCOL_ERROR, "PUSH_PROMISE with push disabled");
            case Http2FrameType.PING -> shared.onPing(output, traceId, frame);
            case Http2FrameType.GOAWAY -> onGoaway(traceId, frame);
            case Http2FrameType.WINDOW_UPDATE -> onWindowUpdate(traceId, streamId, frame, error);
            default ->
            {
                // unknown frame types are ignored (RFC 9113 5.5)
            }
        }
    }

    // a stream id we never opened (even: the server's, which it may not open without push; or not yet used)
    @Override
    boolean idle(int streamId)
    {
        return (streamId & 1) == 0 || streamId >= nextStreamId;
    }

    private void onSettings(long traceId, Http2FrameFW frame)
    {
        final Http2SettingsFW settings = shared.settingsRO.wrap(frame.buffer(), frame.offset(), frame.limit());
        if (settings.ack())
        {
            return;
        }
        if (hasEnablePush(settings))
        {
            connectionError(traceId, PROTOCOL_ERROR, "SETTINGS_ENABLE_PUSH from a server");
            return;
        }
        if (!applySettings(traceId, settings, active, activeCount))
        {
            return;
        }
        settingsReceived = true;
        startWaiting(traceId);
        flushGrants(traceId);
    }

    private static boolean hasEnablePush(Http2SettingsFW settings)
    {
        for (int i = 0; i < settings.count(); i++)
        {
            if (settings.id(i) == Http2Settings.ENABLE_PUSH && settings.value(i) != 0)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * GOAWAY: no new stream goes on this connection. Streams above its last stream id were not processed (RFC 9113
     * 6.8): those fail with REFUSED_STREAM in their HttpResetEx; the requests still waiting here never went out and
     * are taken to another connection. The connection ends once the streams it processes are done.
     */
    private void onGoaway(long traceId, Http2FrameFW frame)
    {
        final Http2GoawayFW goaway = shared.goawayRO.wrap(frame.buffer(), frame.offset(), frame.limit());
        final int lastStreamId = goaway.lastStreamId();
        final long code = goaway.errorCode();
        goawayReceived = true;
        factory.event(traceId, "http.h2.goaway", "GOAWAY " + Http2ErrorCode.name((int) code) + " last stream " + lastStreamId);
        for (int i = activeCount - 1; i >= 0; i--)
        {
            final Http2ClientStream stream = active[i];
            if (stream.id > lastStreamId)
            {
                stream.doFail(traceId, REFUSED_STREAM);
                onStreamClosed(traceId, stream);
            }
        }
        while (!waiting.isEmpty())
        {
            final Http2ClientStream stream = waiting.pollFirst();
            stream.retry(traceId, exitId, queued, stream.queuedAt(), stream.queuedLength());
        }
        queuedLimit = 0;
        if (activeCount == 0)
        {
            doNetEnd(traceId);
        }
    }

    @Override
    Http2Shared.Sender sender(int streamId)
    {
        return streams.get(streamId);
    }

    private void onRstStream(long traceId, int streamId, Http2FrameFW frame)
    {
        final Http2ClientStream stream = streams.get(streamId);
        if (stream != null)
        {
            final int code = (int) shared.rstStreamRO.wrap(frame.buffer(), frame.offset(), frame.limit()).errorCode();
            stream.onRstStream(traceId, code);
            onStreamClosed(traceId, stream);
        }
        else if (idle(streamId))
        {
            connectionError(traceId, PROTOCOL_ERROR, "RST_STREAM on an idle stream");
        }
    }

    private void onData(long traceId, Http2FrameFW frame, int error)
    {
        final int streamId = frame.streamId();
        final int flow = frame.length();
        if (idle(streamId))
        {
            connectionError(traceId, PROTOCOL_ERROR, "DATA on an idle stream");
            return;
        }
        if (flow > receiveWindow)
        {
            connectionError(traceId, FLOW_CONTROL_ERROR, "DATA beyond the connection window");
            return;
        }
        receiveWindow -= flow;
        // given back as it arrives: each stream's window (its application's credit) bounds what waits
        consumed += flow;
        if (consumed >= CONNECTION_WINDOW / 2 && !closing)
        {
            final int limit = Http2FrameWriter.windowUpdate(shared.frame, 0, 0, (int) consumed);
            receiveWindow += consumed;
            consumed = 0;
            write(traceId, shared.frame, 0, limit);
        }
        final Http2ClientStream stream = streams.get(streamId);
        if (stream == null)
        {
            // a stream we closed or reset: what crossed our RST_STREAM is dropped (RFC 9113 5.1)
            return;
        }
        if (error != NO_ERROR)
        {
            streamError(traceId, streamId, error);
            return;
        }
        stream.onData(traceId, shared.dataRO.wrap(frame.buffer(), frame.offset(), frame.limit()));
    }

    private void onHeaders(long traceId, Http2HeadersFW headers, int frameError)
    {
        final int id = headers.streamId();
        if (idle(id))
        {
            connectionError(traceId, PROTOCOL_ERROR, "HEADERS on a stream we did not open");
            return;
        }
        blocks.onHeaders(traceId, headers, 0, frameError);
    }

    /**
     * A whole header block of the server: decoded whatever becomes of its stream, so that HPACK's tables stay in step;
     * a response's head (interim ones skipped), or its trailers.
     */
    private void onBlock(long traceId, int id, int kind, boolean endStream, int frameError, DirectBuffer buffer,
        int offset, int length)
    {
        final Http2ClientStream stream = streams.get(id);
        final boolean wanted = stream != null && !stream.responseEnded();
        final Http2ResponseHeaders sink = shared.responseHeaders;
        final boolean trailers = wanted && stream.responseBegun();
        final int result;
        if (wanted)
        {
            sink.begin(trailers ? factory.trailers : factory.responseHeaders, trailers);
            result = decoder.decode(buffer, offset, length, sink);
        }
        else
        {
            result = decoder.decode(buffer, offset, length, shared.ignore);
        }
        if (result == HpackDecoder.COMPRESSION_ERROR)
        {
            connectionError(traceId, COMPRESSION_ERROR, "HPACK: " + decoder.error());
            return;
        }
        if (stream == null)
        {
            return;
        }
        if (frameError != NO_ERROR || !wanted)
        {
            streamError(traceId, id, frameError != NO_ERROR ? frameError : STREAM_CLOSED);
            return;
        }
        final int listLength = sink.end();
        if (sink.malformed || result != HpackDecoder.DECODED || listLength < 0
            || (trailers ? !endStream : sink.interim() && endStream))
        {
            factory.event(traceId, "http.response.invalid", "a malformed response on stream " + id
                + (sink.reason != null ? ": " + sink.reason : ""));
            streamError(traceId, id, PROTOCOL_ERROR);
            return;
        }
        if (trailers)
        {
            stream.onResponseTrailers(traceId, factory.trailers.buffer(), listLength);
        }
        else if (!sink.interim())
        {
            stream.onResponseHeaders(traceId, factory.responseHeaders.buffer(), listLength, endStream);
        }
    }

    /** A stream error: RST_STREAM with {@code code}, and the stream's application streams failed with it. */
    @Override
    void streamError(long traceId, int streamId, int code)
    {
        factory.event(traceId, "http.h2.stream.reset", "stream " + streamId + " " + Http2ErrorCode.name(code));
        writeRstStream(traceId, streamId, code);
        final Http2ClientStream stream = streams.get(streamId);
        if (stream != null)
        {
            stream.doFail(traceId, code);
            onStreamClosed(traceId, stream);
        }
    }

    /** A connection error: GOAWAY with {@code code}, every stream on it failed, and the connection ended. */
    @Override
    void connectionError(long traceId, int code, String why)
    {
        if (closing)
        {
            return;
        }
        factory.event(traceId, "http.h2.connection.error", Http2ErrorCode.name(code) + ": " + why);
        // closing first: a stream failed here must not let a waiting request start on this connection
        closing = true;
        failStreams(traceId, code);
        final int length = shared.debug.putStringWithoutLengthAscii(0, why);
        final int limit = Http2FrameWriter.goaway(shared.frame, 0, 0, code, shared.debug, 0, length);
        write(traceId, shared.frame, 0, limit);
        doNetEnd(traceId);
    }

    private void failStreams(long traceId, int code)
    {
        for (int i = activeCount - 1; i >= 0; i--)
        {
            final Http2ClientStream stream = i < activeCount ? active[i] : null;
            if (stream != null)
            {
                stream.doFail(traceId, code);
                onStreamClosed(traceId, stream);
            }
        }
        while (!waiting.isEmpty())
        {
            waiting.pollFirst().doFail(traceId, code);
        }
    }

    /** Ends our side once what waits is written; the server's side is read (and dropped) until it ends. */
    private void doNetEnd(long traceId)
    {
        closing = true;
        blocks.release();
        endPending = true;
        flush(traceId);
        checkClosed();
    }

    /** The stream is closed both ways: it is forgotten, and what waits may start. */
    void onStreamClosed(long traceId, Http2ClientStream stream)
    {
        if (streams.remove(stream.id) == null)
        {
            return;
        }
        activeCount = removeActive(active, activeCount, stream);
        if (goawayReceived && activeCount == 0 && !closing)
        {
            doNetEnd(traceId);
            return;
        }
        startWaiting(traceId);
        flushGrants(traceId);
    }

    /** Hands out the server's windows and the network's credit to the requests' applications, round robin. */
    @Override
    void flushGrants(long traceId)
    {
        if (activeCount == 0 || writer.pending() || closing)
        {
            return;
        }
        handOut(traceId, active, activeCount);
    }

    @Override
    void write(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (!writer.write(traceId, buffer, offset, length))
        {
            factory.event(traceId, "http.buffers.exhausted", "no room for HTTP/2 frames beyond the server's credit");
            onNetClosed(traceId);
        }
    }

    /** Aborts the connection and every stream on it (the binding is going away, or the network broke). */
    @Override
    void doAbortAll(long traceId)
    {
        onNetClosed(traceId);
    }

    @Override
    void checkClosed()
    {
        if (closing)
        {
            factory.forget(this);
        }
        if (!closed && (net.closed() || net.outClosed && net.inClosed))
        {
            closed = true;
            reader.release();
            writer.release();
            blocks.release();
        }
    }
}
