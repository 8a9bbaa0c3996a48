/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

/** The frame types of RFC 9113 section 6; any other type is ignored (section 5.5). */
public final class Http2FrameType
{
    public static final int DATA = 0x0;
    public static final int HEADERS = 0x1;
    public static final int PRIORITY = 0x2;
    public static final int RST_STREAM = 0x3;
    public static final int SETTINGS = 0x4;
    public static final int PUSH_PROMISE = 0x5;
    public static final int PING = 0x6;
    public static final int GOAWAY = 0x7;
    public static final int WINDOW_UPDATE = 0x8;
    public static final int CONTINUATION = 0x9;

    private static final String[] NAMES =
    {
        "DATA", "HEADERS", "PRIORITY", "RST_STREAM", "SETTINGS", "PUSH_PROMISE", "PING", "GOAWAY", "WINDOW_UPDATE",
        "CONTINUATION",
    };

    private Http2FrameType()
    {
    }

    public static boolean known(
        int type)
    {
        return type >= DATA && type <= CONTINUATION;
    }

    /** The type's name, "UNKNOWN" for an extension type: for logs and events. */
    public static String name(
        int type)
    {
        return known(type) ? NAMES[type] : "UNKNOWN";
    }
}
