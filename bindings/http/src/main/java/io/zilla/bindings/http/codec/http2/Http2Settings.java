/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.http2;

/**
 * The six SETTINGS parameters of RFC 9113 section 6.5.2, one endpoint's current values: what the peer sent
 * (applied from each SETTINGS frame, unknown ids ignored) or what this endpoint announces.
 */
public final class Http2Settings
{
    public static final int HEADER_TABLE_SIZE = 0x1;
    public static final int ENABLE_PUSH = 0x2;
    public static final int MAX_CONCURRENT_STREAMS = 0x3;
    public static final int INITIAL_WINDOW_SIZE = 0x4;
    public static final int MAX_FRAME_SIZE = 0x5;
    public static final int MAX_HEADER_LIST_SIZE = 0x6;

    /** No limit: the initial MAX_CONCURRENT_STREAMS and MAX_HEADER_LIST_SIZE; the largest value a parameter holds. */
    public static final long UNLIMITED = 0xffff_ffffL;

    public static final long DEFAULT_HEADER_TABLE_SIZE = 4096;
    public static final long DEFAULT_INITIAL_WINDOW_SIZE = 65_535;
    public static final long MAX_WINDOW_SIZE = 0x7fff_ffff;

    private final long[] values = new long[MAX_HEADER_LIST_SIZE + 1];

    public Http2Settings()
    {
        reset();
    }

    /** Back to the initial values every connection starts with (section 6.5.2). */
    public Http2Settings reset()
    {
        values[HEADER_TABLE_SIZE] = DEFAULT_HEADER_TABLE_SIZE;
        values[ENABLE_PUSH] = 1;
        values[MAX_CONCURRENT_STREAMS] = UNLIMITED;
        values[INITIAL_WINDOW_SIZE] = DEFAULT_INITIAL_WINDOW_SIZE;
        values[MAX_FRAME_SIZE] = Http2FrameFW.DEFAULT_MAX_FRAME_SIZE;
        values[MAX_HEADER_LIST_SIZE] = UNLIMITED;
        return this;
    }

    public long get(
        int id)
    {
        return values[id];
    }

    /** Sets a known parameter (checked as {@link #check} does); an unknown id is ignored. */
    public Http2Settings set(
        int id,
        long value)
    {
        if (known(id))
        {
            if (check(id, value) != Http2ErrorCode.NO_ERROR)
            {
                throw new IllegalArgumentException("setting " + id + " = " + value);
            }
            values[id] = value;
        }
        return this;
    }

    public long headerTableSize()
    {
        return values[HEADER_TABLE_SIZE];
    }

    public boolean enablePush()
    {
        return values[ENABLE_PUSH] == 1;
    }

    public long maxConcurrentStreams()
    {
        return values[MAX_CONCURRENT_STREAMS];
    }

    public int initialWindowSize()
    {
        return (int) values[INITIAL_WINDOW_SIZE];
    }

    public int maxFrameSize()
    {
        return (int) values[MAX_FRAME_SIZE];
    }

    public long maxHeaderListSize()
    {
        return values[MAX_HEADER_LIST_SIZE];
    }

    /**
     * Applies a SETTINGS frame that {@link Http2FrameDecoder} accepted, in order (a parameter given twice takes
     * its last value); unknown ids are ignored (section 6.5.2).
     */
    public void apply(
        Http2SettingsFW settings)
    {
        for (int i = 0, count = settings.count(); i < count; i++)
        {
            final int id = settings.id(i);
            if (known(id))
            {
                values[id] = settings.value(i);
            }
        }
    }

    public static boolean known(
        int id)
    {
        return id >= HEADER_TABLE_SIZE && id <= MAX_HEADER_LIST_SIZE;
    }

    /** The connection error a parameter's value is (section 6.5.2), or NO_ERROR. */
    public static int check(
        int id,
        long value)
    {
        return switch (id)
        {
            case ENABLE_PUSH -> value > 1 ? Http2ErrorCode.PROTOCOL_ERROR : Http2ErrorCode.NO_ERROR;
            case INITIAL_WINDOW_SIZE -> value > MAX_WINDOW_SIZE ? Http2ErrorCode.FLOW_CONTROL_ERROR : Http2ErrorCode.NO_ERROR;
            case MAX_FRAME_SIZE -> value < Http2FrameFW.DEFAULT_MAX_FRAME_SIZE || value > Http2FrameFW.MAX_LENGTH
                ? Http2ErrorCode.PROTOCOL_ERROR
                : Http2ErrorCode.NO_ERROR;
            default -> Http2ErrorCode.NO_ERROR;
        };
    }
}
