/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.ENHANCE_YOUR_CALM;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FLOW_CONTROL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.INTERNAL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.NO_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.STREAM_CLOSED;
import static io.zilla.engine.binding.signal.Signaler.NO_CANCEL_ID;
import static java.nio.ByteOrder.BIG_ENDIAN;
import static java.nio.charset.StandardCharsets.US_ASCII;

import io.zilla.bindings.http.codec.hpack.HpackDecoder;
import io.zilla.bindings.http.codec.http2.Http2DataFW;
import io.zilla.bindings.http.codec.http2.Http2ErrorCode;
import io.zilla.bindings.http.codec.http2.Http2Flags;
import io.zilla.bindings.http.codec.http2.Http2FrameFW;
import io.zilla.bindings.http.codec.http2.Http2FrameType;
import io.zilla.bindings.http.codec.http2.Http2FrameWriter;
import io.zilla.bindings.http.codec.http2.Http2Preface;
import io.zilla.bindings.http.codec.http2.Http2Settings;
import io.zilla.bindings.http.codec.http2.Http2SettingsFW;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One HTTP/2 connection of an http server (RFC 9113): the preface, the SETTINGS exchange, PING, GOAWAY, the
 * connection's flow control windows both ways, and the dispatch of each frame to its stream ({@link Http2Stream}, one
 * application stream per request). Header blocks (HEADERS and CONTINUATION) are gathered and decoded by
 * {@link Http2HeaderBlocks}. Stream errors reset that stream only; connection errors send GOAWAY with the last stream
 * id and end this connection only.
 *
 * <p>Flow control, receiving: the connection window stays at 65,535 and is given back (WINDOW_UPDATE on stream 0) as
 * DATA arrives; a stream's window follows the credit its application gives, and what arrives beyond that credit (the
 * window every stream starts with) waits in the stream's own buffer slot. Sending: the
 * client's windows (per stream and for the connection) and the network's credit are handed out to the streams'
 * applications as zilla credit, round robin, at most one DATA frame's worth per stream at a time, so that the sum of
 * the credit handed out never exceeds what the client and the network can take.
 *
 * <p>Floods that cost us more than the client (streams reset as fast as they open, CONTINUATION or empty DATA frames
 * without end, acknowledgements the client does not read, a header block left open) are counted by
 * {@link Http2FloodGuard} and the header block timer, and answered with GOAWAY ENHANCE_YOUR_CALM past their limits.
 */
final class Http2Server extends Http2Connection
{
    // apart from HTTP/1.1's signal ids, which a connection upgraded to HTTP/2 may still receive
    static final int SIGNAL_CLOSE_TIMEOUT = 3;
    private static final int SIGNAL_FLUSH = 4;
    private static final int SIGNAL_HEADER_TIMEOUT = 5;
    /** Frames up to this size wait to go to the client with the others made in the same pass over the ring. */
    private static final int COALESCED_FRAME_MAX = 1024;
    private static final DirectBuffer SWITCHING = new UnsafeBuffer(
        "HTTP/1.1 101 Switching Protocols\r\nconnection: Upgrade\r\nupgrade: h2c\r\n\r\n".getBytes(US_ASCII));
    /** The connection's receive window: the protocol's initial one, never raised. */
    static final int CONNECTION_WINDOW = 65_535;
    /** How many closed stream ids are remembered, to tell a closed stream from one never opened. */
    private static final int CLOSED_IDS = 64;

    final HttpServerFactory factory;
    final Http2HeaderBlocks blocks;
    private final Http2FloodGuard floods;
    /** The SETTINGS_INITIAL_WINDOW_SIZE we announce: each stream's receive window to begin with. */
    final int initialWindow;
    final int maxConcurrentStreams;

    private final Int2ObjectHashMap<Http2Stream> streams = new Int2ObjectHashMap<>();
    private final Http2Stream[] active;
    private final Http2Stream[] idle;
    private int idleCount;
    private int activeCount;

    // recently closed streams, and whether we reset them (frames for those are then ignored, RFC 9113 5.1)
    private final int[] closedIds = new int[CLOSED_IDS];
    private final boolean[] closedByReset = new boolean[CLOSED_IDS];
    private int closedCursor;

    int lastStreamId;
    private boolean prefaceReceived;
    private boolean settingsReceived;
    private boolean goawaySent;
    private boolean goawayReceived;
    private boolean closing;

    private long timerId = NO_CANCEL_ID;
    // a header block left open (HEADERS without END_HEADERS) must complete by the deadline; the timer is set once
    private long blockDeadline;
    private long blockTimerId = NO_CANCEL_ID;
    private boolean flushSignalled;
    private boolean abortingStalled;
    private boolean flushingEnds;
    /** Streams whose END_STREAM may wait for a window (an upper bound: recounted as they are looked at). */
    int deferredEnds;

    // flow control: what the client may still send on the connection, and what we took that it may send again
    private long receiveWindow = CONNECTION_WINDOW;
    private long consumed;

    Http2Server(HttpServerFactory factory, StreamSide net)
    {
        super(factory, net);
        this.factory = factory;
        final int headerListSize = factory.headerListSize();
        this.blocks = new Http2HeaderBlocks(this, new HpackDecoder((int) Http2Settings.DEFAULT_HEADER_TABLE_SIZE,
            headerListSize));
        this.initialWindow = Math.min(CONNECTION_WINDOW, factory.bufferPool.slotCapacity());
        this.maxConcurrentStreams = factory.options.limits().concurrentStreams();
        this.floods = new Http2FloodGuard(factory.floods);
        this.active = new Http2Stream[maxConcurrentStreams];
        this.idle = new Http2Stream[maxConcurrentStreams];
    }

    /** Starts the connection: our SETTINGS, then what was read before HTTP/2 was chosen (null: nothing). */
    void start(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        final MutableDirectBuffer frame = shared.frame;
        int cursor = Http2FrameFW.HEADER_SIZE;
        cursor = Http2FrameWriter.setting(frame, cursor, Http2Settings.MAX_CONCURRENT_STREAMS, maxConcurrentStreams);
        cursor = Http2FrameWriter.setting(frame, cursor, Http2Settings.INITIAL_WINDOW_SIZE, initialWindow);
        cursor = Http2FrameWriter.setting(frame, cursor, Http2Settings.MAX_HEADER_LIST_SIZE, factory.headerListSize());
        Http2FrameWriter.header(frame, 0, cursor - Http2FrameFW.HEADER_SIZE, Http2FrameType.SETTINGS, 0, 0);
        write(traceId, frame, 0, cursor);
        if (buffer != null && limit > offset)
        {
            final OctetsFW bytes = shared.octetsRO.wrap(buffer, offset, limit);
            if (!reader.onData(traceId, bytes))
            {
                doAbortAll(traceId);
                return;
            }
        }
        reader.doWindow(traceId);
    }

    /** The SETTINGS payload of an HTTP2-Settings header (base64url), or null when it is not one. */
    static byte[] upgradeSettings(DirectBuffer buffer, int offset, int length)
    {
        final byte[] text = new byte[length];
        buffer.getBytes(offset, text);
        try
        {
            // rare (once per upgrade): allocating here is fine
            final byte[] payload = java.util.Base64.getUrlDecoder().decode(trimPadding(text));
            if (payload.length % Http2SettingsFW.PARAMETER_SIZE != 0)
            {
                return null;
            }
            final UnsafeBuffer settings = new UnsafeBuffer(payload);
            for (int at = 0; at < payload.length; at += Http2SettingsFW.PARAMETER_SIZE)
            {
                if (Http2Settings.check(settings.getShort(at, BIG_ENDIAN) & 0xffff,
                    settings.getInt(at + 2, BIG_ENDIAN) & 0xffff_ffffL) != NO_ERROR)
                {
                    return null;
                }
            }
            return payload;
        }
        catch (IllegalArgumentException ex)
        {
            return null;
        }
    }

    private static byte[] trimPadding(byte[] text)
    {
        int length = text.length;
        while (length > 0 && text[length - 1] == '=')
        {
            length--;
        }
        return length == text.length ? text : java.util.Arrays.copyOf(text, length);
    }

    /**
     * Starts the connection after an {@code Upgrade: h2c} request: 101, our SETTINGS, the client's HTTP2-Settings
     * applied as its first SETTINGS, and the request (its header list, {@code length} bytes in the factory's request
     * headers) as stream 1, half-closed (remote); what followed the request is read as HTTP/2 (the preface first).
     */
    void startUpgraded(long traceId, byte[] settings, int length, boolean head, boolean options, DirectBuffer buffer,
        int offset, int limit)
    {
        write(traceId, SWITCHING, 0, SWITCHING.capacity());
        final UnsafeBuffer payload = new UnsafeBuffer(settings);
        for (int at = 0; at < settings.length; at += Http2SettingsFW.PARAMETER_SIZE)
        {
            final int id = payload.getShort(at, BIG_ENDIAN) & 0xffff;
            if (Http2Settings.known(id))
            {
                peer.set(id, payload.getInt(at + 2, BIG_ENDIAN) & 0xffff_ffffL);
            }
        }
        encoder.settingsTableSize(peer.headerTableSize());
        start(traceId, null, 0, 0);
        lastStreamId = 1;
        final Http2Stream stream = newStream(traceId, 1);
        final Http2RequestHeaders request = shared.requestHeaders;
        request.head = head;
        request.options = options;
        request.contentLength = -1;
        stream.onRequest(traceId, length, true, request);
        if (limit > offset)
        {
            final OctetsFW bytes = shared.octetsRO.wrap(buffer, offset, limit);
            if (!reader.onData(traceId, bytes))
            {
                doAbortAll(traceId);
                return;
            }
        }
        reader.doWindow(traceId);
    }

    void onNetMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        switch (msgTypeId)
        {
            case DataFW.TYPE_ID -> onNetData(factory.dataRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID -> onNetEnd(factory.endRO.wrap(buffer, index, index + length).traceId());
            case AbortFW.TYPE_ID ->
            {
                net.inClosed = true;
                doAbortAll(factory.abortRO.wrap(buffer, index, index + length).traceId());
            }
            case WindowFW.TYPE_ID -> onNetWindow(factory.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID ->
            {
                net.outClosed = true;
                doAbortAll(factory.resetRO.wrap(buffer, index, index + length).traceId());
            }
            case SignalFW.TYPE_ID ->
            {
                final int signalId = factory.signalRO.wrap(buffer, index, index + length).signalId();
                if (signalId == SIGNAL_FLUSH)
                {
                    onFlushSignal(factory.signalRO.traceId());
                }
                else if (signalId == SIGNAL_HEADER_TIMEOUT)
                {
                    onHeaderTimeout(factory.signalRO.traceId());
                }
                else if (signalId == SIGNAL_CLOSE_TIMEOUT)
                {
                    // the client did not close after our GOAWAY within the timeout: drop it
                    timerId = NO_CANCEL_ID;
                    doAbortAll(factory.signalRO.traceId());
                }
            }
            default ->
            {
                // Begin came before HTTP/2 was chosen; flushes and challenges mean nothing here
            }
        }
    }

    private void onNetEnd(long traceId)
    {
        net.inClosed = true;
        // nothing more will come: requests not complete are aborted, the responses under way may finish; a stream that
        // closes hands out its credit and writes the ends that waited, which may close others (and reorder the table)
        for (int i = activeCount - 1; i >= 0; i--)
        {
            final Http2Stream stream = i < activeCount ? active[i] : null;
            if (stream != null)
            {
                stream.onClientGone(traceId);
            }
        }
        goawayReceived = true;
        abortStalled(traceId);
        if (deferredEnds > 0)
        {
            flushDeferredEnds(traceId);
        }
        if (activeCount == 0)
        {
            doGoaway(traceId, NO_ERROR, null);
        }
        checkClosed();
    }

    /**
     * Once the client has closed its side, it can no longer open a window: a response that waits for one would wait
     * for ever, holding its application stream (and whatever that holds upstream). Such streams are aborted; the
     * responses that fit the windows left go on.
     */
    private void abortStalled(long traceId)
    {
        if (abortingStalled)
        {
            // closing a stream hands its credit out again, which comes back here
            return;
        }
        abortingStalled = true;
        for (int i = activeCount - 1; i >= 0; i--)
        {
            final Http2Stream stream = i < activeCount ? active[i] : null;
            if (stream != null && stream.stalled())
            {
                stream.doAbort(traceId);
                onStreamClosed(traceId, stream, true);
            }
        }
        abortingStalled = false;
    }

    /** Writes the END_STREAM of the complete responses that waited for a window, now that one allows it. */
    private void flushDeferredEnds(long traceId)
    {
        if (flushingEnds)
        {
            // a stream that closes hands its credit out again, which comes back here
            return;
        }
        flushingEnds = true;
        int deferred = 0;
        for (int i = activeCount - 1; i >= 0; i--)
        {
            final Http2Stream stream = i < activeCount ? active[i] : null;
            if (stream != null && stream.endDeferred() && !stream.flushDeferredEnd(traceId))
            {
                deferred++;
            }
        }
        deferredEnds = deferred;
        flushingEnds = false;
    }

    private void onNetWindow(WindowFW window)
    {
        final long traceId = window.traceId();
        net.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
        flush(traceId);
    }

    // the frames that were in the ring when small frames were first held are handled: what is held goes out
    private void onFlushSignal(long traceId)
    {
        flushSignalled = false;
        writer.releaseHeld(traceId);
        flush(traceId);
    }

    /** Decodes frames from what the network sent; returns how far it got. Never re-entered. */
    @Override
    int decode(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        int progress = offset;
        if (!prefaceReceived)
        {
            final int match = Http2Preface.match(buffer, progress, limit);
            if (match == Http2Preface.INCOMPLETE)
            {
                return progress;
            }
            if (match == Http2Preface.MISMATCHED)
            {
                connectionError(traceId, PROTOCOL_ERROR, "not the HTTP/2 preface");
                return limit;
            }
            prefaceReceived = true;
            progress += Http2Preface.LENGTH;
        }
        return decodeFrames(traceId, buffer, progress, limit);
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
            connectionError(traceId, PROTOCOL_ERROR, "the preface not followed by SETTINGS");
            return;
        }
        dispatch(traceId, frame, error, type, streamId);
        watchHeaderBlock(traceId);
    }

    private void dispatch(long traceId, Http2FrameFW frame, int error, int type, int streamId)
    {
        switch (type)
        {
            case Http2FrameType.DATA -> onData(traceId, frame);
            case Http2FrameType.HEADERS ->
            {
                floods.onPayload();
                blocks.onHeaders(traceId, shared.headersRO.wrap(frame.buffer(), frame.offset(), frame.limit()), error);
            }
            case Http2FrameType.CONTINUATION -> blocks.onContinuation(traceId, shared.continuationRO.wrap(frame.buffer(),
                frame.offset(), frame.limit()));
            case Http2FrameType.PRIORITY ->
            {
                // priorities are ignored (RFC 9113 deprecates them); only a stream depending on itself is an error
                if (error != NO_ERROR)
                {
                    streamError(traceId, streamId, error);
                }
            }
            case Http2FrameType.RST_STREAM -> onRstStream(traceId, streamId);
            case Http2FrameType.SETTINGS -> onSettings(traceId, shared.settingsRO.wrap(frame.buffer(), frame.offset(),
                frame.limit()));
            case Http2FrameType.PUSH_PROMISE -> connectionError(traceId, PROTOCOL_ERROR, "PUSH_PROMISE from a client");
            case Http2FrameType.PING ->
            {
                if (!frame.hasFlags(Http2Flags.ACK))
                {
                    shared.onPing(output, traceId, frame);
                    onControlFrame(traceId);
                }
            }
            case Http2FrameType.GOAWAY -> onGoaway(traceId);
            case Http2FrameType.WINDOW_UPDATE -> onWindowUpdate(traceId, streamId, frame, error);
            default ->
            {
                // unknown frame types are ignored (RFC 9113 5.5)
            }
        }
    }

    private void onSettings(long traceId, Http2SettingsFW settings)
    {
        if (settings.ack())
        {
            // our SETTINGS never change, so there is nothing to apply when the client acknowledges them
            return;
        }
        settingsReceived = true;
        if (applySettings(traceId, settings, active, activeCount) && onControlFrame(traceId))
        {
            flushGrants(traceId);
        }
    }

    /**
     * We wrote an acknowledgement or a RST_STREAM: one that must wait beyond the network's credit counts toward the
     * limit on those a client leaves unread (a PING or SETTINGS flood it does not read would otherwise fill our slot).
     * False after the connection error it caused.
     */
    private boolean onControlFrame(long traceId)
    {
        if (!floods.onControlFrame(writer.held() > net.outCredit()))
        {
            connectionError(traceId, ENHANCE_YOUR_CALM, floods.whyControlFrames());
            return false;
        }
        return true;
    }

    /** A stream was reset: past the limit in its window, the client is resetting streams faster than it may (rapid reset). */
    private void onReset(long traceId)
    {
        if (!floods.onReset())
        {
            connectionError(traceId, ENHANCE_YOUR_CALM, floods.whyResets());
        }
    }

    /** A header block that the last frame left open must complete within the header timeout, as HTTP/1.1's headers. */
    private void watchHeaderBlock(long traceId)
    {
        if (!blocks.expectsContinuation() || closing)
        {
            blockDeadline = 0L;
        }
        else if (blockDeadline == 0L)
        {
            blockDeadline = System.currentTimeMillis() + factory.options.limits().headerTimeout();
            if (blockTimerId == NO_CANCEL_ID)
            {
                blockTimerId = factory.context.signaler().signalAt(blockDeadline, net.originId, net.routedId,
                    net.outboundId, traceId, SIGNAL_HEADER_TIMEOUT, 0);
            }
        }
    }

    // the timer stays set from block to block: one that fires with no block open does nothing, one early sets itself again
    private void onHeaderTimeout(long traceId)
    {
        blockTimerId = NO_CANCEL_ID;
        if (blockDeadline == 0L || closing)
        {
            return;
        }
        if (System.currentTimeMillis() < blockDeadline)
        {
            blockTimerId = factory.context.signaler().signalAt(blockDeadline, net.originId, net.routedId, net.outboundId,
                traceId, SIGNAL_HEADER_TIMEOUT, 0);
            return;
        }
        blockDeadline = 0L;
        connectionError(traceId, ENHANCE_YOUR_CALM, "a header block not complete within the header timeout");
    }

    private void onGoaway(long traceId)
    {
        // the client opens no more streams: the connection ends once those it opened are answered
        goawayReceived = true;
        if (activeCount == 0)
        {
            doGoaway(traceId, NO_ERROR, null);
        }
    }

    @Override
    Http2Shared.Sender sender(int streamId)
    {
        return streams.get(streamId);
    }

    @Override
    boolean idle(int streamId)
    {
        return streamId > lastStreamId;
    }

    private void onRstStream(long traceId, int streamId)
    {
        final Http2Stream stream = streams.get(streamId);
        if (stream != null)
        {
            stream.onRstStream(traceId);
            onReset(traceId);
        }
        else if (streamId > lastStreamId)
        {
            connectionError(traceId, PROTOCOL_ERROR, "RST_STREAM on an idle stream");
        }
    }

    private void onData(long traceId, Http2FrameFW frame)
    {
        final int streamId = frame.streamId();
        final int flow = frame.length();
        if (flow > receiveWindow)
        {
            connectionError(traceId, FLOW_CONTROL_ERROR, "DATA beyond the connection window");
            return;
        }
        receiveWindow -= flow;
        final Http2Stream stream = streams.get(streamId);
        if (stream == null && streamId > lastStreamId)
        {
            connectionError(traceId, PROTOCOL_ERROR, "DATA on an idle stream");
            return;
        }
        final Http2DataFW data = shared.dataRO.wrap(frame.buffer(), frame.offset(), frame.limit());
        if (data.dataLength() > 0 || data.endStream())
        {
            floods.onPayload();
        }
        else if (!floods.onEmptyData())
        {
            connectionError(traceId, ENHANCE_YOUR_CALM, floods.whyEmptyFrames());
            return;
        }
        // what a stream does not pass on at once waits in its own slot, within the window it gave: the connection's
        // window is given back as DATA arrives, so that a stream whose application is slow does not stall the others
        consumed(traceId, flow);
        if (stream == null)
        {
            if (!resetByUs(streamId))
            {
                streamError(traceId, streamId, STREAM_CLOSED);
            }
            return;
        }
        stream.onData(traceId, data);
    }

    /** Request bytes arrived (and went on, were dropped or wait in their stream's slot): the client may send as many again. */
    void consumed(long traceId, int bytes)
    {
        consumed += bytes;
        if (consumed >= CONNECTION_WINDOW / 2 && !goawaySent)
        {
            final int limit = Http2FrameWriter.windowUpdate(shared.frame, 0, 0, (int) consumed);
            receiveWindow += consumed;
            consumed = 0;
            write(traceId, shared.frame, 0, limit);
        }
    }

    /** A new stream the client opened with a request's headers; null when it may not be opened (then reset). */
    Http2Stream newStream(long traceId, int streamId)
    {
        if (activeCount >= maxConcurrentStreams || goawaySent)
        {
            streamError(traceId, streamId, Http2ErrorCode.REFUSED_STREAM);
            return null;
        }
        final Http2Stream stream = (idleCount > 0 ? idle[--idleCount] : new Http2Stream(this))
            .init(streamId, peer.initialWindowSize(), initialWindow);
        streams.put(streamId, stream);
        active[activeCount++] = stream;
        return stream;
    }

    Http2Stream stream(int streamId)
    {
        return streams.get(streamId);
    }

    /** The stream is closed both ways: it is forgotten, and its unused credit goes back to the others. */
    void onStreamClosed(long traceId, Http2Stream stream, boolean reset)
    {
        if (streams.remove(stream.id) == null)
        {
            return;
        }
        stream.metrics.finish();
        activeCount = removeActive(active, activeCount, stream);
        rememberClosed(stream.id, reset);
        // kept for a stream to come; never more than were open at once, which the active table bounds
        if (idleCount < idle.length)
        {
            idle[idleCount++] = stream;
        }
        if (closing)
        {
            // the connection is being torn down: its streams are aborted, nothing more goes to the client
            return;
        }
        if (goawayReceived && activeCount == 0)
        {
            doGoaway(traceId, NO_ERROR, null);
        }
        else
        {
            flushGrants(traceId);
        }
    }

    /** A stream error: RST_STREAM with {@code code}, and the stream's application streams reset and aborted. */
    @Override
    void streamError(long traceId, int streamId, int code)
    {
        factory.event(traceId, "http.h2.stream.reset", "stream " + streamId + " " + Http2ErrorCode.name(code));
        final int limit = Http2FrameWriter.rstStream(shared.frame, 0, streamId, code);
        write(traceId, shared.frame, 0, limit);
        final Http2Stream stream = streams.get(streamId);
        if (stream != null)
        {
            stream.doAbort(traceId);
            onStreamClosed(traceId, stream, true);
        }
        else
        {
            rememberClosed(streamId, true);
        }
        // a reset for the client's error counts as one of its resets (a client can provoke them as fast as it can send
        // them); one for our own failure does not
        if (onControlFrame(traceId) && code != INTERNAL_ERROR)
        {
            onReset(traceId);
        }
    }

    /** A connection error: GOAWAY with {@code code}, every stream aborted, and the connection ended. */
    @Override
    void connectionError(long traceId, int code, String why)
    {
        if (closing)
        {
            return;
        }
        factory.rejected.increment();
        factory.event(traceId, "http.h2.connection.error", Http2ErrorCode.name(code) + ": " + why);
        // closing first: a stream aborted here must not let the others' ends or credit go out (nor a GOAWAY NO_ERROR)
        closing = true;
        abortStreams(traceId);
        doGoaway(traceId, code, why);
    }

    private void doGoaway(long traceId, int code, String why)
    {
        if (goawaySent)
        {
            return;
        }
        goawaySent = true;
        final MutableDirectBuffer frame = shared.frame;
        final int limit;
        if (why != null)
        {
            final int length = shared.debug.putStringWithoutLengthAscii(0, why);
            limit = Http2FrameWriter.goaway(frame, 0, lastStreamId, code, shared.debug, 0, length);
        }
        else
        {
            limit = Http2FrameWriter.goaway(frame, 0, lastStreamId, code, null, 0, 0);
        }
        write(traceId, frame, 0, limit);
        doNetEnd(traceId);
    }

    /** Ends the network stream once what waits is written; what the client still sends is read and dropped. */
    private void doNetEnd(long traceId)
    {
        closing = true;
        blocks.release();
        endPending = true;
        writer.releaseHeld(traceId);
        flush(traceId);
        if (!net.inClosed && timerId == NO_CANCEL_ID)
        {
            timerId = factory.context.signaler().signalAt(
                System.currentTimeMillis() + factory.options.limits().headerTimeout(),
                net.originId, net.routedId, net.outboundId, traceId, SIGNAL_CLOSE_TIMEOUT, 0);
        }
        checkClosed();
    }

    /** Aborts every stream; the connection is closing, so closing one lets nothing go to the others. */
    private void abortStreams(long traceId)
    {
        for (int i = activeCount - 1; i >= 0; i--)
        {
            final Http2Stream stream = i < activeCount ? active[i] : null;
            if (stream != null)
            {
                stream.doAbort(traceId);
                onStreamClosed(traceId, stream, true);
            }
        }
    }

    /** Aborts the connection and every stream it serves. */
    @Override
    void doAbortAll(long traceId)
    {
        closing = true;
        goawaySent = true;
        abortStreams(traceId);
        endPending = false;
        blocks.release();
        net.doOutAbort(traceId);
        net.doInReset(traceId);
        checkClosed();
    }

    /**
     * Writes a frame to the client after what waits before it. A small frame (HEADERS, an empty or short DATA, a
     * WINDOW_UPDATE, an acknowledgement) is held with the others made while the frames now in the ring are handled,
     * and they go in one write when a signal behind those frames comes back (or with the next larger frame): many
     * streams' responses to one read from the client cost one write to the socket rather than two each. A larger
     * frame goes at once if the client's credit allows, else waits for it.
     */
    @Override
    void write(long traceId, DirectBuffer buffer, int offset, int length)
    {
        final boolean written = length <= COALESCED_FRAME_MAX && !closing
            ? hold(traceId, buffer, offset, length)
            : writer.write(traceId, buffer, offset, length);
        if (!written)
        {
            factory.event(traceId, "http.buffers.exhausted", "no room for HTTP/2 frames beyond the client's credit");
            doAbortAll(traceId);
        }
    }

    private boolean hold(long traceId, DirectBuffer buffer, int offset, int length)
    {
        if (!writer.hold(traceId, buffer, offset, length))
        {
            // what is held is full: it goes (or waits for credit), and this frame starts what is held next
            writer.releaseHeld(traceId);
            if (!writer.hold(traceId, buffer, offset, length))
            {
                return false;
            }
        }
        if (!flushSignalled)
        {
            flushSignalled = true;
            factory.context.signaler().signalNow(net.originId, net.routedId, net.outboundId, traceId, SIGNAL_FLUSH, 0);
        }
        return true;
    }

    /**
     * Hands out the credit the client's windows and the network leave to the applications whose responses wait for
     * it: round robin from where the last hand-out stopped, each stream up to one DATA frame at a time. Nothing is
     * handed out while frames wait for the network.
     */
    @Override
    void flushGrants(long traceId)
    {
        if (net.inClosed && activeCount > 0)
        {
            abortStalled(traceId);
        }
        if (deferredEnds > 0 && !closing)
        {
            flushDeferredEnds(traceId);
        }
        if (activeCount == 0 || writer.pending() || closing)
        {
            return;
        }
        handOut(traceId, active, activeCount);
    }

    /**
     * Writes a header block as HEADERS (and CONTINUATION frames past the client's frame size): {@code status} (none
     * when negative), then each {@code name: value} line of {@code lines}, names in lower case. False when the
     * lines did not fit their buffer (nothing is written then, and HPACK's table is untouched).
     */
    boolean writeHeaders(long traceId, int streamId, int status, HttpAsciiWriter lines, boolean endStream)
    {
        if (lines.overflow)
        {
            return false;
        }
        final MutableDirectBuffer block = shared.block;
        final int capacity = block.capacity();
        int cursor = encoder.beginBlock(block, 0);
        if (status > 0)
        {
            cursor = encoder.encodeStatus(block, cursor, capacity, status);
        }
        final DirectBuffer text = lines.buffer;
        final int end = lines.position;
        int at = 0;
        while (at < end)
        {
            int colon = at;
            while (colon < end && text.getByte(colon) != ':')
            {
                colon++;
            }
            int valueStart = colon + 1;
            while (valueStart < end && text.getByte(valueStart) == ' ')
            {
                valueStart++;
            }
            int lineEnd = valueStart;
            while (lineEnd < end && text.getByte(lineEnd) != '\r')
            {
                lineEnd++;
            }
            final int nameLength = colon - at;
            for (int i = 0; i < nameLength; i++)
            {
                shared.name.putByte(i, HttpRequestHead.toLower(text.getByte(at + i)));
            }
            // the block has room for twice the lines: a field never takes more than its line and 16 bytes
            cursor = encoder.encode(block, cursor, capacity, shared.name, 0, nameLength, text, valueStart,
                lineEnd - valueStart, false);
            at = lineEnd + 2;
        }
        shared.writeBlock(output, traceId, streamId, cursor, Math.min(peer.maxFrameSize(),
            Http2Shared.MAX_FRAME_PAYLOAD), endStream);
        return true;
    }

    /** Writes {@code length} bytes (null: none) as DATA frames of the client's frame size at most. */
    void writeData(long traceId, int streamId, DirectBuffer buffer, int offset, int length, boolean endStream)
    {
        shared.writeData(output, traceId, streamId, buffer, offset, length,
            Math.min(peer.maxFrameSize(), Http2Shared.MAX_FRAME_PAYLOAD), endStream);
    }

    boolean resetByUs(int streamId)
    {
        for (int i = 0; i < CLOSED_IDS; i++)
        {
            if (closedIds[i] == streamId)
            {
                return closedByReset[i];
            }
        }
        return false;
    }

    boolean recentlyClosed(int streamId)
    {
        for (int i = 0; i < CLOSED_IDS; i++)
        {
            if (closedIds[i] == streamId)
            {
                return true;
            }
        }
        return false;
    }

    private void rememberClosed(int streamId, boolean reset)
    {
        for (int i = 0; i < CLOSED_IDS; i++)
        {
            if (closedIds[i] == streamId)
            {
                closedByReset[i] |= reset;
                return;
            }
        }
        final int at = closedCursor++ % CLOSED_IDS;
        closedIds[at] = streamId;
        closedByReset[at] = reset;
    }

    @Override
    boolean closing()
    {
        return closing;
    }

    @Override
    void checkClosed()
    {
        if (net.closed() || net.outClosed && net.inClosed)
        {
            if (timerId != NO_CANCEL_ID)
            {
                factory.context.signaler().cancel(timerId);
                timerId = NO_CANCEL_ID;
            }
            if (blockTimerId != NO_CANCEL_ID)
            {
                factory.context.signaler().cancel(blockTimerId);
                blockTimerId = NO_CANCEL_ID;
            }
            reader.release();
            writer.release();
            blocks.release();
            factory.onClosed(net.inboundId);
        }
    }
}
