/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;

/**
 * A frame of RFC 9113 section 4.1 in place: a 9-byte header (24-bit payload length, type, flags, a reserved bit
 * and a 31-bit stream id) then the payload. The typed views (Http2DataFW...) extend it with their payload's
 * fields; they read what {@link Http2FrameDecoder} validated and do not check it again.
 */
public class Http2FrameFW
{
    public static final int HEADER_SIZE = 9;

    /** The largest payload length the 24-bit field holds, and the largest SETTINGS_MAX_FRAME_SIZE. */
    public static final int MAX_LENGTH = (1 << 24) - 1;

    /** The SETTINGS_MAX_FRAME_SIZE every endpoint accepts, and the least one may announce. */
    public static final int DEFAULT_MAX_FRAME_SIZE = 1 << 14;

    private DirectBuffer buffer;
    private int offset;

    /** Wraps the frame at {@code offset}, its header and whole payload before {@code limit}. */
    public Http2FrameFW wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        if (limit - offset < HEADER_SIZE || limit - offset - HEADER_SIZE < length(buffer, offset))
        {
            throw new IllegalArgumentException("incomplete frame at " + offset);
        }
        this.buffer = buffer;
        this.offset = offset;
        return this;
    }

    public final DirectBuffer buffer()
    {
        return buffer;
    }

    public final int offset()
    {
        return offset;
    }

    /** The payload's length. */
    public final int length()
    {
        return length(buffer, offset);
    }

    public final int type()
    {
        return buffer.getByte(offset + 3) & 0xff;
    }

    public final int flags()
    {
        return buffer.getByte(offset + 4) & 0xff;
    }

    public final boolean hasFlags(
        int flags)
    {
        return (flags() & flags) == flags;
    }

    /** The stream id, without the reserved bit (which a receiver ignores). */
    public final int streamId()
    {
        return streamId(buffer, offset);
    }

    public final int payloadOffset()
    {
        return offset + HEADER_SIZE;
    }

    /** The frame's end: its header, then its payload. */
    public final int limit()
    {
        return offset + HEADER_SIZE + length();
    }

    /** The payload length in a header at {@code offset} (9 bytes must be there). */
    public static int length(
        DirectBuffer buffer,
        int offset)
    {
        return (buffer.getByte(offset) & 0xff) << 16 | buffer.getShort(offset + 1, BIG_ENDIAN) & 0xffff;
    }

    public static int streamId(
        DirectBuffer buffer,
        int offset)
    {
        return buffer.getInt(offset + 5, BIG_ENDIAN) & 0x7fff_ffff;
    }

    final int padLength()
    {
        return hasFlags(Http2Flags.PADDED) ? buffer.getByte(payloadOffset()) & 0xff : 0;
    }

    final int int31(
        int at)
    {
        return buffer.getInt(at, BIG_ENDIAN) & 0x7fff_ffff;
    }

    final long uint32(
        int at)
    {
        return buffer.getInt(at, BIG_ENDIAN) & 0xffff_ffffL;
    }
}
