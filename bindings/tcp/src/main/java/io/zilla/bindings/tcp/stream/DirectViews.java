/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import java.nio.ByteBuffer;

/**
 * A view of each direct buffer that socket writes read from (the worker's ring first, then the buffer pool's
 * chunks), so that a write sets a view's position and limit instead of copying, and the buffer's own stays
 * untouched. The first few buffers seen get a view once; a write from any other is copied by the caller, so
 * that a write never allocates.
 */
final class DirectViews
{
    // the ring is the first buffer a write reads from; slots are written from only under back pressure
    private static final int CAPACITY = 8;

    private final ByteBuffer[] sources = new ByteBuffer[CAPACITY];
    private final ByteBuffer[] views = new ByteBuffer[CAPACITY];
    private int count;

    /** @return the view of {@code source}, or null when it has none and there is no room for another */
    ByteBuffer viewOf(ByteBuffer source)
    {
        for (int i = 0; i < count; i++)
        {
            if (sources[i] == source)
            {
                return views[i];
            }
        }
        ByteBuffer view = null;
        if (count < CAPACITY)
        {
            sources[count] = source;
            view = views[count] = source.duplicate();
            count++;
        }
        return view;
    }
}
