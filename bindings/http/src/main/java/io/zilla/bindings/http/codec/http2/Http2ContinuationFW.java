/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import org.agrona.DirectBuffer;

/** CONTINUATION (RFC 9113 section 6.10): the next fragment of a field block; the whole payload. */
public final class Http2ContinuationFW extends Http2FrameFW
{
    @Override
    public Http2ContinuationFW wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        super.wrap(buffer, offset, limit);
        return this;
    }

    public boolean endHeaders()
    {
        return hasFlags(Http2Flags.END_HEADERS);
    }

    public int fragmentOffset()
    {
        return payloadOffset();
    }

    public int fragmentLength()
    {
        return length();
    }
}
