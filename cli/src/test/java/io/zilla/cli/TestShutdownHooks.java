/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** Shutdown hooks that a test runs itself, as the JVM runs them on SIGTERM; halting only records the status. */
final class TestShutdownHooks implements ShutdownHooks
{
    private final List<Runnable> hooks = new CopyOnWriteArrayList<>();
    private volatile Integer halted;

    @Override
    public void register(Runnable hook)
    {
        hooks.add(hook);
    }

    @Override
    public void halt(int status)
    {
        halted = status;
    }

    int registered()
    {
        return hooks.size();
    }

    /** Plays SIGTERM: runs every hook on its own thread, as the JVM does, and waits for them. */
    void signal() throws InterruptedException
    {
        final List<Thread> threads = hooks.stream().map(hook -> new Thread(hook, "test-shutdown")).toList();
        threads.forEach(Thread::start);
        for (Thread thread : threads)
        {
            thread.join();
        }
    }

    /** The status a hook ended the JVM with, or null when none did. */
    Integer halted()
    {
        return halted;
    }
}
