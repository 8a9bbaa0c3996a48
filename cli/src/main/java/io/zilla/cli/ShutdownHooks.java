/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

/**
 * How {@code zilla start} learns that the JVM is stopping, and how it then ends it. In the distribution these are
 * the JVM's shutdown hooks; tests substitute their own so that they can play the part of SIGTERM in-process.
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
}
