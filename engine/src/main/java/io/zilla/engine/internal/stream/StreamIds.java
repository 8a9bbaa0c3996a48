/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.stream;

/**
 * The layout of a stream id: bit 0 is the direction (1 initial, 0 reply), bits 1 to 55 a sequence, bits 56 to
 * 62 the index of the worker that owns the stream. Finding a stream's worker is a shift.
 */
public final class StreamIds
{
    public static final int MAX_WORKERS = 128;

    private static final int WORKER_SHIFT = 56;
    private static final long SEQUENCE_MASK = (1L << WORKER_SHIFT) - 1;

    private StreamIds()
    {
    }

    public static long initialId(int workerIndex, long sequence)
    {
        return (long) workerIndex << WORKER_SHIFT | (sequence << 1 & SEQUENCE_MASK) | 1L;
    }

    public static boolean isInitial(long streamId)
    {
        return (streamId & 1L) != 0L;
    }

    public static long replyId(long initialId)
    {
        return initialId & ~1L;
    }

    public static long initialIdOf(long streamId)
    {
        return streamId | 1L;
    }

    public static int workerIndex(long streamId)
    {
        return (int) (streamId >>> WORKER_SHIFT) & (MAX_WORKERS - 1);
    }
}
