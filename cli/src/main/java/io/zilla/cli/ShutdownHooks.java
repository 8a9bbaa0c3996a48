/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How {@code zilla start} and {@code zilla demo} learn that the JVM is stopping, and how they then end it. In the
 * distribution these are the JVM's shutdown hooks; tests substitute their own so that they can play the part of
 * SIGTERM in-process.
 */
interface ShutdownHooks
{
    ShutdownHooks JVM = new ShutdownHooks()
    {
        @Override
        public void register(Runnable hook)
        {
            Runtime.getRuntime().addShutdownHook(new Thread(hook, "zilla-shutdown"));
        }

        @Override
        public void halt(int status)
        {
            System.out.flush();
            System.err.flush();
            Runtime.getRuntime().halt(status);
        }
    };

    /** Runs {@code hook} when the JVM begins to stop: SIGTERM, SIGINT (Ctrl-C), or {@code System.exit}. */
    void register(Runnable hook);

    /**
     * Ends the JVM with {@code status}; called last by a hook. A JVM stopped by a signal exits 128 + the signal
     * (143 for SIGTERM) however cleanly it stopped; halting from the hook reports the status zilla chose instead.
     */
    void halt(int status);

    /** What a command runs until it is told to stop; it returns its exit status. */
    @FunctionalInterface
    interface StoppableRun
    {
        int run(CountDownLatch stopRequested) throws InterruptedException;
    }

    /**
     * Runs {@code run} with a hook registered before it starts (so that a signal during start still stops it
     * cleanly): the hook asks it to stop, waits up to {@code timeoutSeconds} for it to return, calls
     * {@code onTimeout} if it did not, and halts with its status (or FAILED).
     *
     * @return the status {@code run} returned
     */
    default int runUntilStopped(StoppableRun run, long timeoutSeconds, Runnable onTimeout) throws InterruptedException
    {
        final CountDownLatch stopRequested = new CountDownLatch(1);
        final CountDownLatch finished = new CountDownLatch(1);
        final AtomicInteger status = new AtomicInteger(ExitStatus.FAILED);
        register(() ->
        {
            stopRequested.countDown();
            boolean stopped = false;
            try
            {
                stopped = finished.await(timeoutSeconds, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex)
            {
                Thread.currentThread().interrupt();
            }
            if (!stopped)
            {
                onTimeout.run();
            }
            halt(stopped ? status.get() : ExitStatus.FAILED);
        });

        try
        {
            status.set(run.run(stopRequested));
        }
        finally
        {
            finished.countDown();
        }
        return status.get();
    }
}
