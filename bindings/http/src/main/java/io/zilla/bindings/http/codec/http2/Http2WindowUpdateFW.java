/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import org.agrona.DirectBuffer;

/** WINDOW_UPDATE (RFC 9113 section 6.9): a 31-bit increment, for a stream or (stream 0) the connection. */
public final class Http2WindowUpdateFW extends Http2FrameFW
{
    @Override
    public Http2WindowUpdateFW wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        super.wrap(buffer, offset, limit);
        return this;
    }

    public int increment()
    {
        return int31(payloadOffset());
    }
}
