/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

import static java.nio.charset.StandardCharsets.US_ASCII;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The client connection preface (RFC 9113 section 3.4): these 24 bytes, then a SETTINGS frame. A server with
 * prior knowledge (h2c) or after ALPN "h2" expects it before any frame.
 */
public final class Http2Preface
{
    public static final DirectBuffer PREFACE = new UnsafeBuffer("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(US_ASCII));
    public static final int LENGTH = 24;

    /** {@link #match}: the bytes so far are the preface's start; more are needed. */
    public static final int INCOMPLETE = 0;
    /** {@link #match}: the whole preface is there. */
    public static final int MATCHED = 1;
    /** {@link #match}: not the preface (a PROTOCOL_ERROR; for h2c without prior knowledge, likely HTTP/1.1). */
    public static final int MISMATCHED = -1;

    private Http2Preface()
    {
    }

    /** Checks the bytes at {@code offset} up to {@code limit} (at most the preface's length is read). */
    public static int match(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        final int length = Math.min(limit - offset, LENGTH);
        for (int i = 0; i < length; i++)
        {
            if (buffer.getByte(offset + i) != PREFACE.getByte(i))
            {
                return MISMATCHED;
            }
        }
        return length == LENGTH ? MATCHED : INCOMPLETE;
    }

    /** Writes the preface; returns its limit. */
    public static int write(
        MutableDirectBuffer buffer,
        int offset)
    {
        buffer.putBytes(offset, PREFACE, 0, LENGTH);
        return offset + LENGTH;
    }
}
