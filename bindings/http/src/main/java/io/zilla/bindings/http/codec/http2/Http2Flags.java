/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

/** The flags of RFC 9113 section 6; each is defined for some frame types only, and ignored on the others. */
public final class Http2Flags
{
    /** DATA, HEADERS. */
    public static final int END_STREAM = 0x01;
    /** SETTINGS, PING. */
    public static final int ACK = 0x01;
    /** HEADERS, PUSH_PROMISE, CONTINUATION. */
    public static final int END_HEADERS = 0x04;
    /** DATA, HEADERS, PUSH_PROMISE. */
    public static final int PADDED = 0x08;
    /** HEADERS. */
    public static final int PRIORITY = 0x20;

    private Http2Flags()
    {
    }
}
