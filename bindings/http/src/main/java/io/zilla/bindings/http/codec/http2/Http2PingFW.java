/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static java.nio.ByteOrder.BIG_ENDIAN;

import org.agrona.DirectBuffer;

/** PING (RFC 9113 section 6.7): 8 opaque bytes, returned in the ACK. */
public final class Http2PingFW extends Http2FrameFW
{
    @Override
    public Http2PingFW wrap(
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

    /** The 8 opaque bytes as one big-endian long. */
    public long opaque()
    {
        return buffer().getLong(payloadOffset(), BIG_ENDIAN);
    }
}
