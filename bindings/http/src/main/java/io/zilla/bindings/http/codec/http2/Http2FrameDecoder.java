/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FRAME_SIZE_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.NO_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;

/**
 * Splits received bytes into frames and checks every rule of RFC 9113 that a frame breaks on its own, without the
 * connection's state: lengths for the type and under SETTINGS_MAX_FRAME_SIZE, stream id 0 where a stream is
 * needed and not 0 where the connection is meant, padding within the payload, SETTINGS values, a zero
 * WINDOW_UPDATE, a stream depending on itself. What needs state (stream states, a CONTINUATION expected, flow
 * control windows, a server receiving PUSH_PROMISE, a client receiving ENABLE_PUSH 1) is the connection's.
 *
 * <p>{@link #decode} returns:
 * <ul>
 * <li>the frame's size (header and payload) when a whole frame is there: {@link #frame()} wraps it; if
 *     {@link #error()} is not NO_ERROR the frame is a <em>stream</em> error of that code on its stream (a
 *     HEADERS frame's field block must still go through HPACK to keep the table in step);</li>
 * <li>{@link #INCOMPLETE} (0) when more bytes are needed;</li>
 * <li>{@link #CONNECTION_ERROR} (-1): a connection error of code {@link #error()} (send GOAWAY and close).</li>
 * </ul>
 * Unknown frame types are returned unchecked, to be ignored. Nothing is allocated.
 */
public final class Http2FrameDecoder
{
    public static final int INCOMPLETE = 0;
    public static final int CONNECTION_ERROR = -1;

    private final Http2FrameFW frame = new Http2FrameFW();

    private int maxFrameSize;
    private int error;

    /** @param maxFrameSize the SETTINGS_MAX_FRAME_SIZE this endpoint announced (16384 until it says otherwise) */
    public Http2FrameDecoder(
        int maxFrameSize)
    {
        maxFrameSize(maxFrameSize);
    }

    /** Sets the SETTINGS_MAX_FRAME_SIZE frames are checked against (once the peer acknowledged it). */
    public void maxFrameSize(
        int maxFrameSize)
    {
        if (maxFrameSize < Http2FrameFW.DEFAULT_MAX_FRAME_SIZE || maxFrameSize > Http2FrameFW.MAX_LENGTH)
        {
            throw new IllegalArgumentException("SETTINGS_MAX_FRAME_SIZE " + maxFrameSize);
        }
        this.maxFrameSize = maxFrameSize;
    }

    /** The last frame decoded (valid after {@link #decode} returned a size). */
    public Http2FrameFW frame()
    {
        return frame;
    }

    /** The error code of the last {@link #decode}: NO_ERROR, a stream error or a connection error. */
    public int error()
    {
        return error;
    }

    public int decode(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        error = NO_ERROR;
        if (limit - offset < Http2FrameFW.HEADER_SIZE)
        {
            return INCOMPLETE;
        }
        final int length = Http2FrameFW.length(buffer, offset);
        if (length > maxFrameSize)
        {
            // checked on the header alone: a peer cannot make us wait for a frame we will not accept
            return connectionError(FRAME_SIZE_ERROR);
        }
        if (limit - offset - Http2FrameFW.HEADER_SIZE < length)
        {
            return INCOMPLETE;
        }
        frame.wrap(buffer, offset, limit);
        final int size = Http2FrameFW.HEADER_SIZE + length;
        final int streamId = frame.streamId();
        final boolean padded = frame.hasFlags(Http2Flags.PADDED);
        final int type = frame.type();
        if (streamId == 0 && needsStream(type) || streamId != 0 && isConnectionLevel(type))
        {
            return connectionError(PROTOCOL_ERROR);
        }

        return switch (type)
        {
            case Http2FrameType.DATA -> checkPadding(size, length, padded, 0);
            case Http2FrameType.HEADERS -> checkHeaders(size, length, padded, streamId);
            case Http2FrameType.PRIORITY -> length != 5 ? streamError(size, FRAME_SIZE_ERROR)
                : frame.int31(frame.payloadOffset()) == streamId ? streamError(size, PROTOCOL_ERROR)
                : size;
            case Http2FrameType.RST_STREAM -> length != 4 ? connectionError(FRAME_SIZE_ERROR) : size;
            case Http2FrameType.SETTINGS -> checkSettings(size, length);
            case Http2FrameType.PUSH_PROMISE -> checkPadding(size, length, padded, 4);
            case Http2FrameType.PING -> length != 8 ? connectionError(FRAME_SIZE_ERROR) : size;
            case Http2FrameType.GOAWAY -> length < 8 ? connectionError(FRAME_SIZE_ERROR) : size;
            case Http2FrameType.WINDOW_UPDATE -> length != 4 ? connectionError(FRAME_SIZE_ERROR)
                : frame.int31(frame.payloadOffset()) != 0 ? size
                : streamId == 0 ? connectionError(PROTOCOL_ERROR)
                : streamError(size, PROTOCOL_ERROR);
            default -> size;
        };
    }

    private int checkHeaders(
        int size,
        int length,
        boolean padded,
        int streamId)
    {
        final boolean priority = frame.hasFlags(Http2Flags.PRIORITY);
        final int checked = checkPadding(size, length, padded, priority ? 5 : 0);
        if (checked > 0 && priority)
        {
            final int dependency = frame.int31(frame.payloadOffset() + (padded ? 1 : 0));
            if (dependency == streamId)
            {
                return streamError(size, PROTOCOL_ERROR);
            }
        }
        return checked;
    }

    // the pad length byte (when padded) and the fixed fields must fit the payload, then the padding what is left
    private int checkPadding(
        int size,
        int length,
        boolean padded,
        int fixed)
    {
        final int required = (padded ? 1 : 0) + fixed;
        if (length < required)
        {
            return connectionError(FRAME_SIZE_ERROR);
        }
        if (padded && (frame.buffer().getByte(frame.payloadOffset()) & 0xff) > length - required)
        {
            return connectionError(PROTOCOL_ERROR);
        }
        return size;
    }

    private int checkSettings(
        int size,
        int length)
    {
        if (frame.hasFlags(Http2Flags.ACK) ? length != 0 : length % Http2SettingsFW.PARAMETER_SIZE != 0)
        {
            return connectionError(FRAME_SIZE_ERROR);
        }
        final DirectBuffer buffer = frame.buffer();
        for (int at = frame.payloadOffset(); at < frame.limit(); at += Http2SettingsFW.PARAMETER_SIZE)
        {
            final int id = buffer.getShort(at, BIG_ENDIAN) & 0xffff;
            final int code = Http2Settings.check(id, frame.uint32(at + 2));
            if (code != NO_ERROR)
            {
                return connectionError(code);
            }
        }
        return size;
    }

    private int connectionError(
        int code)
    {
        error = code;
        return CONNECTION_ERROR;
    }

    private int streamError(
        int size,
        int code)
    {
        error = code;
        return size;
    }

    private static boolean needsStream(
        int type)
    {
        return switch (type)
        {
            case Http2FrameType.DATA, Http2FrameType.HEADERS, Http2FrameType.PRIORITY, Http2FrameType.RST_STREAM,
                Http2FrameType.PUSH_PROMISE, Http2FrameType.CONTINUATION -> true;
            default -> false;
        };
    }

    private static boolean isConnectionLevel(
        int type)
    {
        return type == Http2FrameType.SETTINGS || type == Http2FrameType.PING || type == Http2FrameType.GOAWAY;
    }
}
