/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.health;

import java.util.concurrent.atomic.AtomicLong;

/**
 * When a worker last went round its loop, written by the worker once per pass and read by the health thread. The
 * write is ordered (a plain store on x86), not volatile: the worker pays no fence, and the reader sees the time a
 * moment late at worst, which is nothing against a stall threshold of seconds.
 */
public final class WorkerPulse
{
    private final int worker;
    private final AtomicLong lastPassMillis;
    private volatile Thread thread;

    public WorkerPulse(int worker, long nowMillis)
    {
        this.worker = worker;
        this.lastPassMillis = new AtomicLong(nowMillis);
    }

    /** The worker's thread, once it started. */
    public void thread(Thread thread)
    {
        this.thread = thread;
    }

    /** On the worker, once per pass, with the time the pass read anyway. */
    public void pass(long nowMillis)
    {
        lastPassMillis.lazySet(nowMillis);
    }

    public int worker()
    {
        return worker;
    }

    public long lastPassMillis()
    {
        return lastPassMillis.get();
    }

    public boolean alive()
    {
        final Thread current = thread;
        return current != null && current.isAlive();
    }
}
