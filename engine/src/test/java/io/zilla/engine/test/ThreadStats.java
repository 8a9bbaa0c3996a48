/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.test;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;

import com.sun.management.ThreadMXBean;

/**
 * CPU time and allocated bytes of the live threads whose names start with a prefix, by thread id: what the
 * benchmarks report for zilla's workers. {@link #enable()} once before the first {@link #of}.
 */
public record ThreadStats(Map<Long, long[]> byThread, long cpuNanos, long allocated)
{
    public static final ThreadStats NONE = new ThreadStats(Map.of(), 0, 0);

    private static final ThreadMXBean THREADS = (ThreadMXBean) ManagementFactory.getThreadMXBean();

    /** Turns on the JVM's per-thread CPU time and allocation accounting. */
    public static void enable()
    {
        THREADS.setThreadAllocatedMemoryEnabled(true);
        THREADS.setThreadCpuTimeEnabled(true);
    }

    public static ThreadStats of(String prefix)
    {
        final Map<Long, long[]> byThread = new HashMap<>();
        long cpu = 0;
        long allocated = 0;
        for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds()))
        {
            if (info != null && info.getThreadName().startsWith(prefix))
            {
                final long id = info.getThreadId();
                final long[] values = {THREADS.getThreadCpuTime(id), THREADS.getThreadAllocatedBytes(id)};
                byThread.put(id, values);
                cpu += values[0];
                allocated += values[1];
            }
        }
        return new ThreadStats(byThread, cpu, allocated);
    }

    /** What the threads alive in both spent between {@code before} and this. */
    public ThreadStats minus(ThreadStats before)
    {
        long cpu = 0;
        long allocated = 0;
        for (Map.Entry<Long, long[]> entry : byThread.entrySet())
        {
            final long[] earlier = before.byThread.get(entry.getKey());
            if (earlier != null)
            {
                cpu += entry.getValue()[0] - earlier[0];
                allocated += entry.getValue()[1] - earlier[1];
            }
        }
        return new ThreadStats(Map.of(), cpu, allocated);
    }

    public ThreadStats plus(ThreadStats other)
    {
        return new ThreadStats(Map.of(), cpuNanos + other.cpuNanos, allocated + other.allocated);
    }
}
