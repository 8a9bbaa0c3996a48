/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.bindings.http.codec.hpack.HpackHeaderSink;
import io.zilla.bindings.http.codec.http2.Http2ContinuationFW;
import io.zilla.bindings.http.codec.http2.Http2DataFW;
import io.zilla.bindings.http.codec.http2.Http2Flags;
import io.zilla.bindings.http.codec.http2.Http2FrameFW;
import io.zilla.bindings.http.codec.http2.Http2FrameType;
import io.zilla.bindings.http.codec.http2.Http2FrameWriter;
import io.zilla.bindings.http.codec.http2.Http2GoawayFW;
import io.zilla.bindings.http.codec.http2.Http2HeadersFW;
import io.zilla.bindings.http.codec.http2.Http2PingFW;
import io.zilla.bindings.http.codec.http2.Http2RstStreamFW;
import io.zilla.bindings.http.codec.http2.Http2SettingsFW;
import io.zilla.bindings.http.codec.http2.Http2WindowUpdateFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What the HTTP/2 connections of one http binding on one worker share, server or client: the frame views, the buffers
 * a frame or a header block is written in, the writing of a header block as HEADERS and CONTINUATION frames and of a
 * body as DATA frames, and the checker of request header blocks. Single-threaded, as the worker; made when the first
 * HTTP/2 connection starts.
 */
final class Http2Shared
{
    /** Where a connection's frames go: toward the network at once, or after what waits for its credit. */
    @FunctionalInterface
    interface Output
    {
        void write(long traceId, DirectBuffer buffer, int offset, int length);
    }

    /** The largest DATA or header block fragment we send in one frame (the least MAX_FRAME_SIZE a peer accepts). */
    static final int MAX_FRAME_PAYLOAD = Http2FrameFW.DEFAULT_MAX_FRAME_SIZE;

    final MutableDirectBuffer frame = new UnsafeBuffer(new byte[Http2FrameFW.HEADER_SIZE + MAX_FRAME_PAYLOAD + 64]);
    /** An encoded header block: twice what the response's header lines can take, so that HPACK never runs out. */
    final MutableDirectBuffer block;
    /** A header name in lower case, as HTTP/2 writes it. */
    final MutableDirectBuffer name;
    final MutableDirectBuffer debug = new UnsafeBuffer(new byte[256]);
    final Http2RequestHeaders requestHeaders = new Http2RequestHeaders();
    final Http2ResponseHeaders responseHeaders = new Http2ResponseHeaders();
    /** Takes the fields of a block that must be decoded (to keep HPACK's table in step) and is then dropped. */
    final HpackHeaderSink ignore = (name, nameOffset, nameLength, value, valueOffset, valueLength, neverIndexed) ->
    {
    };

    final OctetsFW octetsRO = new OctetsFW();
    final Http2DataFW dataRO = new Http2DataFW();
    final Http2HeadersFW headersRO = new Http2HeadersFW();
    final Http2ContinuationFW continuationRO = new Http2ContinuationFW();
    final Http2SettingsFW settingsRO = new Http2SettingsFW();
    final Http2PingFW pingRO = new Http2PingFW();
    final Http2WindowUpdateFW windowUpdateRO = new Http2WindowUpdateFW();
    final Http2RstStreamFW rstStreamRO = new Http2RstStreamFW();
    final Http2GoawayFW goawayRO = new Http2GoawayFW();

    Http2Shared(int headerLinesCapacity)
    {
        this.block = new UnsafeBuffer(new byte[2 * headerLinesCapacity + 64]);
        this.name = new UnsafeBuffer(new byte[headerLinesCapacity]);
    }

    /** A stream that sends within credit its connection hands out (a server's response, a client's request). */
    interface Sender
    {
        /** Takes up to {@code room} more credit, at most {@code max} in all; returns what it took. */
        long grant(long traceId, long room, int max, int padding);

        /** What the peer lets this stream send grows by {@code delta} (or shrinks); returns the new window. */
        long addSendWindow(long delta);
    }

    /**
     * Hands out {@code netRoom} (the network's credit) and {@code connectionRoom} (the peer's connection window) to the
     * first {@code count} streams of {@code active}, round robin from {@code start}, each up to {@code max} (one DATA
     * frame and its padding) at a time; returns what was handed out.
     */
    static long handOut(long traceId, Sender[] active, int count, int start, long netRoom, long connectionRoom, int max,
        int padding)
    {
        long granted = 0;
        for (int n = 0; n < count && netRoom - granted > padding && connectionRoom - granted > padding; n++)
        {
            final Sender stream = active[(start + n) % count];
            granted += stream.grant(traceId, Math.min(netRoom, connectionRoom) - granted, max, padding);
        }
        return granted;
    }

    /** What credit a stream that holds {@code credit} may take more: its window's worth, within room and max. */
    static long more(long credit, long sendWindow, long room, int max, int padding)
    {
        final long target = Math.min(max, sendWindow + padding);
        final long more = Math.min(target - credit, room);
        return more <= 0 || credit + more <= padding ? 0 : more;
    }

    /** Answers a PING that is not an ACK with its PING ACK. */
    void onPing(Output out, long traceId, Http2FrameFW frame)
    {
        pingRO.wrap(frame.buffer(), frame.offset(), frame.limit());
        if (!pingRO.hasFlags(Http2Flags.ACK))
        {
            final int limit = Http2FrameWriter.ping(this.frame, 0, true, pingRO.opaque());
            out.write(traceId, this.frame, 0, limit);
        }
    }

    /**
     * Writes the {@code length} bytes of a header block encoded at offset 0 of {@link #block} as one HEADERS frame and
     * as many CONTINUATION frames as fragments of {@code maxFragment} bytes take (RFC 9113 6.10).
     */
    void writeBlock(Output out, long traceId, int streamId, int length, int maxFragment, boolean endStream)
    {
        int offset = 0;
        do
        {
            final int fragment = Math.min(length - offset, maxFragment);
            final boolean first = offset == 0;
            final boolean last = offset + fragment == length;
            final int flags = (last ? Http2Flags.END_HEADERS : 0) | (first && endStream ? Http2Flags.END_STREAM : 0);
            Http2FrameWriter.header(frame, 0, fragment, first ? Http2FrameType.HEADERS : Http2FrameType.CONTINUATION,
                flags, streamId);
            frame.putBytes(Http2FrameFW.HEADER_SIZE, block, offset, fragment);
            out.write(traceId, frame, 0, Http2FrameFW.HEADER_SIZE + fragment);
            offset += fragment;
        }
        while (offset < length);
    }

    /** Writes {@code length} bytes (null: none) as DATA frames of {@code maxData} bytes at most. */
    void writeData(Output out, long traceId, int streamId, DirectBuffer buffer, int offset, int length, int maxData,
        boolean endStream)
    {
        int done = 0;
        do
        {
            final int chunk = Math.min(length - done, maxData);
            final boolean last = done + chunk == length;
            Http2FrameWriter.header(frame, 0, chunk, Http2FrameType.DATA, last && endStream ? Http2Flags.END_STREAM : 0,
                streamId);
            if (chunk > 0)
            {
                frame.putBytes(Http2FrameFW.HEADER_SIZE, buffer, offset + done, chunk);
            }
            out.write(traceId, frame, 0, Http2FrameFW.HEADER_SIZE + chunk);
            done += chunk;
        }
        while (done < length);
    }
}
