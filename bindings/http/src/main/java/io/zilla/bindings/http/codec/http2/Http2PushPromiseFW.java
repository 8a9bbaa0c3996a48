/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import org.agrona.DirectBuffer;

/**
 * PUSH_PROMISE (RFC 9113 section 6.6), decoded only: a client never announces push here (SETTINGS_ENABLE_PUSH
 * 0), and a server that receives one treats it as a PROTOCOL_ERROR connection error (section 8.4).
 */
public final class Http2PushPromiseFW extends Http2FrameFW
{
    @Override
    public Http2PushPromiseFW wrap(
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

    public int promisedStreamId()
    {
        return int31(payloadOffset() + (hasFlags(Http2Flags.PADDED) ? 1 : 0));
    }

    public int fragmentOffset()
    {
        return payloadOffset() + (hasFlags(Http2Flags.PADDED) ? 1 : 0) + 4;
    }

    public int fragmentLength()
    {
        return limit() - padLength() - fragmentOffset();
    }
}
