/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;

/** PRIORITY (RFC 9113 section 6.3): deprecated; read for its checks, otherwise ignored. */
public final class Http2PriorityFW extends Http2FrameFW
{
    @Override
    public Http2PriorityFW wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        super.wrap(buffer, offset, limit);
        return this;
    }

    public int dependency()
    {
        return int31(payloadOffset());
    }

    public boolean exclusive()
    {
        return buffer().getInt(payloadOffset(), BIG_ENDIAN) < 0;
    }

    public int weight()
    {
        return (buffer().getByte(payloadOffset() + 4) & 0xff) + 1;
    }
}
