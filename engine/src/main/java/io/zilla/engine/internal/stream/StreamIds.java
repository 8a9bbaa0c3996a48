/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.stream;

/**
 * The layout of a stream id: bit 0 is the direction (1 initial, 0 reply), bits 1 to 55 a sequence, bits 56 to
 * 62 the index of the worker that owns the stream. Finding a stream's worker is a shift. The low 24 bits of the
 * sequence are the stream's slot in the worker's StreamTable, the 31 bits above them count the ids the worker made:
 * the count wraps after 2^31 ids, and the worker skips an id that is still open when it comes round again.
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

    /** The id of a worker's {@code count}th stream, filed in {@code slot} of its StreamTable. */
    public static long initialId(int workerIndex, long count, int slot)
    {
        return initialId(workerIndex, count << StreamTable.SLOT_BITS | slot);
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
