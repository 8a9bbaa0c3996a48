/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;

/**
 * HEADERS (RFC 9113 section 6.2): a field block fragment between the optional pad length and priority fields
 * and the padding. The priority fields are exposed for completeness; the connection ignores them (section 5.3.2).
 */
public final class Http2HeadersFW extends Http2FrameFW
{
    @Override
    public Http2HeadersFW wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        super.wrap(buffer, offset, limit);
        return this;
    }

    public boolean endStream()
    {
        return hasFlags(Http2Flags.END_STREAM);
    }

    public boolean endHeaders()
    {
        return hasFlags(Http2Flags.END_HEADERS);
    }

    public boolean hasPriority()
    {
        return hasFlags(Http2Flags.PRIORITY);
    }

    /** The stream this one depends on (with the PRIORITY flag). */
    public int dependency()
    {
        return int31(priorityOffset());
    }

    public boolean exclusive()
    {
        return buffer().getInt(priorityOffset(), BIG_ENDIAN) < 0;
    }

    /** The weight, 1 to 256. */
    public int weight()
    {
        return (buffer().getByte(priorityOffset() + 4) & 0xff) + 1;
    }

    public int fragmentOffset()
    {
        return priorityOffset() + (hasPriority() ? 5 : 0);
    }

    public int fragmentLength()
    {
        return limit() - padLength() - fragmentOffset();
    }

    private int priorityOffset()
    {
        return payloadOffset() + (hasFlags(Http2Flags.PADDED) ? 1 : 0);
    }
}
