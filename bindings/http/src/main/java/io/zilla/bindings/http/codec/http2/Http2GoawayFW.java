/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import org.agrona.DirectBuffer;

/** GOAWAY (RFC 9113 section 6.8): the last stream id processed, an error code and debug data. */
public final class Http2GoawayFW extends Http2FrameFW
{
    @Override
    public Http2GoawayFW wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        super.wrap(buffer, offset, limit);
        return this;
    }

    public int lastStreamId()
    {
        return int31(payloadOffset());
    }

    public long errorCode()
    {
        return uint32(payloadOffset() + 4);
    }

    public int debugOffset()
    {
        return payloadOffset() + 8;
    }

    public int debugLength()
    {
        return length() - 8;
    }
}
