/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import org.agrona.DirectBuffer;

/** DATA (RFC 9113 section 6.1): the data between the optional pad length and padding. */
public final class Http2DataFW extends Http2FrameFW
{
    @Override
    public Http2DataFW wrap(
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

    public int dataOffset()
    {
        return payloadOffset() + (hasFlags(Http2Flags.PADDED) ? 1 : 0);
    }

    public int dataLength()
    {
        return length() - (hasFlags(Http2Flags.PADDED) ? 1 + padLength() : 0);
    }

    /** The bytes flow control counts: the whole payload, padding included (section 6.9.1). */
    public int flowControlled()
    {
        return length();
    }
}
