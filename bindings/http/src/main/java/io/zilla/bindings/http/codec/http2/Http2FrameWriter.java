/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes frames of RFC 9113 in place; each method returns the limit of what it wrote. The caller sees to the room
 * (a frame takes {@link Http2FrameFW#HEADER_SIZE} plus its payload). For a field block encoded in place, encode
 * it at {@code offset + HEADER_SIZE} then write the header with {@link #header}.
 */
public final class Http2FrameWriter
{
    private Http2FrameWriter()
    {
    }

    /** A frame header; the reserved bit is written 0. */
    public static int header(
        MutableDirectBuffer buffer,
        int offset,
        int length,
        int type,
        int flags,
        int streamId)
    {
        assert length >= 0 && length <= Http2FrameFW.MAX_LENGTH && streamId >= 0;
        buffer.putByte(offset, (byte) (length >>> 16));
        buffer.putShort(offset + 1, (short) length, BIG_ENDIAN);
        buffer.putByte(offset + 3, (byte) type);
        buffer.putByte(offset + 4, (byte) flags);
        buffer.putInt(offset + 5, streamId, BIG_ENDIAN);
        return offset + Http2FrameFW.HEADER_SIZE;
    }

    /** DATA; {@code padLength} > 0 adds the PADDED flag, the pad length byte and that many zeros. */
    public static int data(
        MutableDirectBuffer buffer,
        int offset,
        int streamId,
        boolean endStream,
        DirectBuffer data,
        int dataOffset,
        int dataLength,
        int padLength)
    {
        return padded(buffer, offset, Http2FrameType.DATA, endStream ? Http2Flags.END_STREAM : 0, streamId,
            data, dataOffset, dataLength, padLength);
    }

    /** HEADERS without priority; {@code flags} END_STREAM and END_HEADERS as needed; padded as {@link #data}. */
    public static int headers(
        MutableDirectBuffer buffer,
        int offset,
        int streamId,
        int flags,
        DirectBuffer block,
        int blockOffset,
        int blockLength,
        int padLength)
    {
        return padded(buffer, offset, Http2FrameType.HEADERS, flags & ~Http2Flags.PRIORITY, streamId,
            block, blockOffset, blockLength, padLength);
    }

    public static int priority(
        MutableDirectBuffer buffer,
        int offset,
        int streamId,
        int dependency,
        boolean exclusive,
        int weight)
    {
        final int payload = header(buffer, offset, 5, Http2FrameType.PRIORITY, 0, streamId);
        buffer.putInt(payload, dependency | (exclusive ? 0x8000_0000 : 0), BIG_ENDIAN);
        buffer.putByte(payload + 4, (byte) (weight - 1));
        return payload + 5;
    }

    public static int rstStream(
        MutableDirectBuffer buffer,
        int offset,
        int streamId,
        int errorCode)
    {
        final int payload = header(buffer, offset, 4, Http2FrameType.RST_STREAM, 0, streamId);
        buffer.putInt(payload, errorCode, BIG_ENDIAN);
        return payload + 4;
    }

    /** SETTINGS with each parameter whose value differs from the protocol's initial one. */
    public static int settings(
        MutableDirectBuffer buffer,
        int offset,
        Http2Settings settings)
    {
        final Http2Settings initial = INITIAL;
        int cursor = offset + Http2FrameFW.HEADER_SIZE;
        for (int id = Http2Settings.HEADER_TABLE_SIZE; id <= Http2Settings.MAX_HEADER_LIST_SIZE; id++)
        {
            if (settings.get(id) != initial.get(id))
            {
                cursor = setting(buffer, cursor, id, settings.get(id));
            }
        }
        header(buffer, offset, cursor - offset - Http2FrameFW.HEADER_SIZE, Http2FrameType.SETTINGS, 0, 0);
        return cursor;
    }

    /** One SETTINGS parameter at {@code offset}, to build a SETTINGS frame by hand (then {@link #header}). */
    public static int setting(
        MutableDirectBuffer buffer,
        int offset,
        int id,
        long value)
    {
        buffer.putShort(offset, (short) id, BIG_ENDIAN);
        buffer.putInt(offset + 2, (int) value, BIG_ENDIAN);
        return offset + Http2SettingsFW.PARAMETER_SIZE;
    }

    public static int settingsAck(
        MutableDirectBuffer buffer,
        int offset)
    {
        return header(buffer, offset, 0, Http2FrameType.SETTINGS, Http2Flags.ACK, 0);
    }

    /** PUSH_PROMISE: for tests and a future client; a server never receives one. */
    public static int pushPromise(
        MutableDirectBuffer buffer,
        int offset,
        int streamId,
        int promisedStreamId,
        boolean endHeaders,
        DirectBuffer block,
        int blockOffset,
        int blockLength)
    {
        final int payload = header(buffer, offset, 4 + blockLength, Http2FrameType.PUSH_PROMISE,
            endHeaders ? Http2Flags.END_HEADERS : 0, streamId);
        buffer.putInt(payload, promisedStreamId, BIG_ENDIAN);
        buffer.putBytes(payload + 4, block, blockOffset, blockLength);
        return payload + 4 + blockLength;
    }

    public static int ping(
        MutableDirectBuffer buffer,
        int offset,
        boolean ack,
        long opaque)
    {
        final int payload = header(buffer, offset, 8, Http2FrameType.PING, ack ? Http2Flags.ACK : 0, 0);
        buffer.putLong(payload, opaque, BIG_ENDIAN);
        return payload + 8;
    }

    public static int goaway(
        MutableDirectBuffer buffer,
        int offset,
        int lastStreamId,
        int errorCode,
        DirectBuffer debug,
        int debugOffset,
        int debugLength)
    {
        final int payload = header(buffer, offset, 8 + debugLength, Http2FrameType.GOAWAY, 0, 0);
        buffer.putInt(payload, lastStreamId, BIG_ENDIAN);
        buffer.putInt(payload + 4, errorCode, BIG_ENDIAN);
        if (debugLength > 0)
        {
            buffer.putBytes(payload + 8, debug, debugOffset, debugLength);
        }
        return payload + 8 + debugLength;
    }

    public static int windowUpdate(
        MutableDirectBuffer buffer,
        int offset,
        int streamId,
        int increment)
    {
        final int payload = header(buffer, offset, 4, Http2FrameType.WINDOW_UPDATE, 0, streamId);
        buffer.putInt(payload, increment, BIG_ENDIAN);
        return payload + 4;
    }

    public static int continuation(
        MutableDirectBuffer buffer,
        int offset,
        int streamId,
        boolean endHeaders,
        DirectBuffer block,
        int blockOffset,
        int blockLength)
    {
        final int payload = header(buffer, offset, blockLength, Http2FrameType.CONTINUATION,
            endHeaders ? Http2Flags.END_HEADERS : 0, streamId);
        buffer.putBytes(payload, block, blockOffset, blockLength);
        return payload + blockLength;
    }

    private static int padded(
        MutableDirectBuffer buffer,
        int offset,
        int type,
        int flags,
        int streamId,
        DirectBuffer content,
        int contentOffset,
        int contentLength,
        int padLength)
    {
        final boolean padded = padLength > 0;
        final int length = contentLength + (padded ? 1 + padLength : 0);
        int cursor = header(buffer, offset, length, type, padded ? flags | Http2Flags.PADDED : flags, streamId);
        if (padded)
        {
            buffer.putByte(cursor++, (byte) padLength);
        }
        buffer.putBytes(cursor, content, contentOffset, contentLength);
        cursor += contentLength;
        if (padded)
        {
            buffer.setMemory(cursor, padLength, (byte) 0);
            cursor += padLength;
        }
        return cursor;
    }

    private static final Http2Settings INITIAL = new Http2Settings();
}
