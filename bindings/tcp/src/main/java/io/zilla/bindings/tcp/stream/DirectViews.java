/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.nio.ByteBuffer;

/**
 * A view of each direct buffer that socket writes read from (the worker's ring first, then the buffer pool's
 * chunks), so that a write sets a view's position and limit instead of copying, and the buffer's own stays
 * untouched. The first few buffers seen get a view once; once there are as many as it keeps, a buffer not seen
 * before takes the place of the one seen longest ago but the first (the ring's): the buffer pool frees its chunks
 * after a burst and makes new ones for the next, and views of chunks gone would otherwise fill it for good. Only a
 * new buffer allocates a view, so a write from buffers already seen never does.
 */
final class DirectViews
{
    // the ring is the first buffer a write reads from; slots are written from only under back pressure
    private static final int CAPACITY = 8;

    private final ByteBuffer[] sources = new ByteBuffer[CAPACITY];
    private final ByteBuffer[] views = new ByteBuffer[CAPACITY];
    private int count;
    // the next entry a new buffer takes once every entry is taken: 1 to CAPACITY - 1, round
    private int replaced = 1;

    /** @return the view of {@code source}, made the first time it is seen */
    ByteBuffer viewOf(ByteBuffer source)
    {
        for (int i = 0; i < count; i++)
        {
            if (sources[i] == source)
            {
                return views[i];
            }
        }
        final int entry;
        if (count < CAPACITY)
        {
            entry = count++;
        }
        else
        {
            entry = replaced;
            replaced = replaced + 1 < CAPACITY ? replaced + 1 : 1;
        }
        sources[entry] = source;
        views[entry] = source.duplicate();
        return views[entry];
    }
}
