/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import org.agrona.DirectBuffer;

/** RST_STREAM (RFC 9113 section 6.4). */
public final class Http2RstStreamFW extends Http2FrameFW
{
    @Override
    public Http2RstStreamFW wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        super.wrap(buffer, offset, limit);
        return this;
    }

    /** The error code, unsigned; unknown codes are possible (see {@link Http2ErrorCode#name}). */
    public long errorCode()
    {
        return uint32(payloadOffset());
    }
}
