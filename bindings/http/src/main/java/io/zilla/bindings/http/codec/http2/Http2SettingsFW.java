/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;

/** SETTINGS (RFC 9113 section 6.5): an ACK, or parameters of 6 bytes each (16-bit id, 32-bit value). */
public final class Http2SettingsFW extends Http2FrameFW
{
    public static final int PARAMETER_SIZE = 6;

    @Override
    public Http2SettingsFW wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        super.wrap(buffer, offset, limit);
        return this;
    }

    public boolean ack()
    {
        return hasFlags(Http2Flags.ACK);
    }

    public int count()
    {
        return length() / PARAMETER_SIZE;
    }

    /** The id of parameter {@code index} (0 to count - 1). */
    public int id(
        int index)
    {
        return buffer().getShort(payloadOffset() + index * PARAMETER_SIZE, BIG_ENDIAN) & 0xffff;
    }

    /** The value of parameter {@code index}, unsigned. */
    public long value(
        int index)
    {
        return uint32(payloadOffset() + index * PARAMETER_SIZE + 2);
    }
}
