/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

/**
 * Where a {@link PathPattern} found each of its parts in a path, reused by a worker for every path it matches: sized
 * once for the largest pattern a binding has ({@link #fit}), so that matching allocates nothing.
 */
public final class PathCaptures
{
    private int[] starts = new int[16];
    private int[] ends = new int[16];

    /** Grows the arrays, when they are smaller, to the parts of {@code pattern}. */
    public void fit(PathPattern pattern)
    {
        if (pattern.parts() > starts.length)
        {
            starts = new int[pattern.parts()];
            ends = new int[pattern.parts()];
        }
    }

    public int[] starts()
    {
        return starts;
    }

    public int[] ends()
    {
        return ends;
    }
}
