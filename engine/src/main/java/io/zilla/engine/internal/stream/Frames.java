/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.stream;

import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.ChallengeFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;

/**
 * Where the engine reads a frame's header: every frame starts with core.idl's Frame struct, native order, so
 * the dispatcher reads the few fields it needs at fixed offsets without wrapping.
 */
public final class Frames
{
    public static final int ORIGIN_ID_OFFSET = 0;
    public static final int ROUTED_ID_OFFSET = 8;
    public static final int STREAM_ID_OFFSET = 16;
    public static final int TRACE_ID_OFFSET = 52;
    public static final int HEADER_SIZE = 68;
    /** Data's length field: the header, flags (1), budgetId (8) and reserved (4) come before it. */
    public static final int DATA_LENGTH_OFFSET = HEADER_SIZE + 1 + 8 + 4;

    public static final int BEGIN = BeginFW.TYPE_ID;
    public static final int DATA = DataFW.TYPE_ID;
    public static final int END = EndFW.TYPE_ID;
    public static final int ABORT = AbortFW.TYPE_ID;
    public static final int FLUSH = FlushFW.TYPE_ID;
    public static final int RESET = ResetFW.TYPE_ID;
    public static final int WINDOW = WindowFW.TYPE_ID;
    public static final int SIGNAL = SignalFW.TYPE_ID;
    public static final int CHALLENGE = ChallengeFW.TYPE_ID;

    private Frames()
    {
    }

    /** Begin, Data, End, Abort and Flush go forward, from a direction's sender to its receiver; the rest go back. */
    public static boolean isForward(int msgTypeId)
    {
        return (msgTypeId & 0x4000_0000) == 0;
    }
}
