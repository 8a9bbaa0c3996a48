/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FLOW_CONTROL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.NO_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;

import io.zilla.bindings.http.codec.hpack.HpackEncoder;
import io.zilla.bindings.http.codec.http2.Http2FrameDecoder;
import io.zilla.bindings.http.codec.http2.Http2FrameFW;
import io.zilla.bindings.http.codec.http2.Http2FrameWriter;
import io.zilla.bindings.http.codec.http2.Http2Settings;
import io.zilla.bindings.http.codec.http2.Http2SettingsFW;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;

/**
 * What an HTTP/2 connection does the same as a server ({@link Http2Server}) and as a client
 * ({@link Http2ClientConnection}): the frames decoded one after the other from what the network sent, the peer's
 * SETTINGS applied and acknowledged, and WINDOW_UPDATE kept in the send windows; the rest (which streams exist, what
 * a frame on a stream means, how the connection ends) is each side's own.
 */
abstract class Http2Connection
{
    private final HttpStreamFactory factory;
    private final int slotCapacity;
    final Http2Shared shared;
    final StreamSide net;
    final HttpNetWriter writer;
    final HttpNetReader reader;
    final HpackEncoder encoder = new HpackEncoder((int) Http2Settings.DEFAULT_HEADER_TABLE_SIZE);
    final Http2Settings peer = new Http2Settings();
    /** This connection's {@link #write}, made once: a method reference made per frame would allocate. */
    final Http2Shared.Output output = this::write;
    final Http2FrameDecoder frames = new Http2FrameDecoder(Http2FrameFW.DEFAULT_MAX_FRAME_SIZE);
    /** What the peer lets us send on the connection, and the credit handed to applications that they have not used. */
    long sendWindow = Http2Settings.DEFAULT_INITIAL_WINDOW_SIZE;
    long granted;
    /** The network stream is to end once what waits for its credit is written. */
    boolean endPending;
    private int cursor;

    Http2Connection(HttpStreamFactory factory, StreamSide net)
    {
        this.shared = factory.http2();
        this.net = net;
        this.writer = new HttpNetWriter(net, factory.bufferPool, factory.maxFrame, factory.chunkHead);
        this.reader = new HttpNetReader(net, factory.bufferPool, this::decode);
        this.factory = factory;
        this.slotCapacity = factory.bufferPool.slotCapacity();
    }

    /** Writes what waits for the network, ends it if it is to end, and hands out credit that became available. */
    final void flush(long traceId)
    {
        writer.flush(traceId);
        if (endPending && !writer.pending())
        {
            endPending = false;
            net.doOutEnd(traceId);
            checkClosed();
        }
        flushGrants(traceId);
    }

    /** The network stream may have closed: what the connection holds is let go once it has. */
    abstract void checkClosed();

    /** Takes {@code stream} out of the first {@code count} of {@code active} (the last takes its place); the new count. */
    static <T> int removeActive(T[] active, int count, T stream)
    {
        for (int i = 0; i < count; i++)
        {
            if (active[i] == stream)
            {
                active[i] = active[count - 1];
                active[count - 1] = null;
                return count - 1;
            }
        }
        return count;
    }

    /** Decodes what the network sent (the preface, then frames); returns how far it got. Never re-entered. */
    abstract int decode(long traceId, DirectBuffer buffer, int offset, int limit);

    /** Aborts the connection and every stream on it. */
    abstract void doAbortAll(long traceId);

    /** The network's Data: decoded where it lies, what is not whole yet held for the next. */
    final void onNetData(DataFW data)
    {
        final long traceId = data.traceId();
        final int reserved = data.reserved();
        if (!net.onInData(data.sequence(), reserved))
        {
            doAbortAll(traceId);
            return;
        }
        final OctetsFW payload = data.payload();
        if (payload != null && !reader.onData(traceId, payload))
        {
            factory.event(traceId, "http.buffers.exhausted", "no buffer slot for a partial HTTP/2 frame, connection aborted");
            doAbortAll(traceId);
            return;
        }
        reader.doWindow(traceId);
    }

    /** Whether the connection is ending: what the peer sends is then read and dropped. */
    abstract boolean closing();

    abstract void onFrame(long traceId, Http2FrameFW frame, int error);

    abstract void streamError(long traceId, int streamId, int code);

    abstract void connectionError(long traceId, int code, String why);

    /** Writes a frame to the peer now if its credit allows and nothing waits before, else after what waits. */
    abstract void write(long traceId, DirectBuffer buffer, int offset, int length);

    /** Hands out the credit that became available to the streams that send. */
    abstract void flushGrants(long traceId);

    /** The open stream {@code streamId} that sends (null: none). */
    abstract Http2Shared.Sender sender(int streamId);

    /** Whether {@code streamId} was never opened (a frame on it is a connection PROTOCOL_ERROR). */
    abstract boolean idle(int streamId);

    /** Decodes whole frames from {@code offset} while the connection is not closing; returns how far it got. */
    final int decodeFrames(long traceId, DirectBuffer buffer, int offset, int limit)
    {
        int progress = offset;
        while (progress < limit && !closing())
        {
            final int size = frames.decode(buffer, progress, limit);
            if (size == Http2FrameDecoder.INCOMPLETE)
            {
                break;
            }
            if (size == Http2FrameDecoder.CONNECTION_ERROR)
            {
                connectionError(traceId, frames.error(), "a malformed frame");
                return limit;
            }
            onFrame(traceId, frames.frame(), frames.error());
            progress += size;
        }
        return closing() ? limit : progress;
    }

    /**
     * The peer's SETTINGS (not an ACK): applied in order (HEADER_TABLE_SIZE to our HPACK encoder, a change of
     * INITIAL_WINDOW_SIZE to the send window of each of the {@code count} open streams of {@code open}) and
     * acknowledged. False after a connection error.
     */
    final boolean applySettings(long traceId, Http2SettingsFW settings, Http2Shared.Sender[] open, int count)
    {
        final int oldWindow = peer.initialWindowSize();
        peer.apply(settings);
        encoder.settingsTableSize(peer.headerTableSize());
        final int delta = peer.initialWindowSize() - oldWindow;
        for (int i = 0; i < count && delta != 0; i++)
        {
            if (open[i].addSendWindow(delta) > Http2Settings.MAX_WINDOW_SIZE)
            {
                connectionError(traceId, FLOW_CONTROL_ERROR, "SETTINGS_INITIAL_WINDOW_SIZE takes a window over 2^31-1");
                return false;
            }
        }
        final int limit = Http2FrameWriter.settingsAck(shared.frame, 0);
        write(traceId, shared.frame, 0, limit);
        return true;
    }

    /**
     * Hands out the credit the peer's windows and the network leave to the first {@code count} streams of {@code open}
     * whose applications send: round robin from where the last hand-out stopped, each stream up to one DATA frame
     * (of the peer's frame size, at most 16,384) and its padding at a time, the network's credit taken at most to
     * half a slot, so that the frames we make ourselves fit the slot that holds what waits for the network.
     */
    final void handOut(long traceId, Http2Shared.Sender[] open, int count)
    {
        final int padding = Http2FrameFW.HEADER_SIZE + net.outPad;
        final long netCredit = Math.min(net.outMax - (net.outSeq - net.outAck), slotCapacity / 2);
        final int maxData = Math.min(peer.maxFrameSize(), Http2Shared.MAX_FRAME_PAYLOAD);
        granted += Http2Shared.handOut(traceId, open, count, cursor++ % count, netCredit - granted,
            sendWindow + padding - granted, maxData + padding, padding);
    }

    /** WINDOW_UPDATE: the connection's or a stream's send window grows, and the credit it frees is handed out. */
    final void onWindowUpdate(long traceId, int streamId, Http2FrameFW frame, int error)
    {
        if (error != NO_ERROR)
        {
            streamError(traceId, streamId, error);
            return;
        }
        final int increment = shared.windowUpdateRO.wrap(frame.buffer(), frame.offset(), frame.limit()).increment();
        if (streamId == 0)
        {
            sendWindow += increment;
            if (sendWindow > Http2Settings.MAX_WINDOW_SIZE)
            {
                connectionError(traceId, FLOW_CONTROL_ERROR, "a connection window over 2^31-1");
                return;
            }
        }
        else
        {
            final Http2Shared.Sender stream = sender(streamId);
            if (stream == null)
            {
                if (idle(streamId))
                {
                    connectionError(traceId, PROTOCOL_ERROR, "WINDOW_UPDATE on an idle stream");
                }
                return;
            }
            if (stream.addSendWindow(increment) > Http2Settings.MAX_WINDOW_SIZE)
            {
                streamError(traceId, streamId, FLOW_CONTROL_ERROR);
                return;
            }
        }
        flushGrants(traceId);
    }
}
