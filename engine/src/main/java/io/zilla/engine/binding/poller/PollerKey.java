/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.poller;

import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;

/**
 * A channel registered with a worker's selector. Interest is set per operation; the handler of an
 * operation runs on the worker when the channel is ready for it.
 */
public interface PollerKey
{
    SelectableChannel channel();

    /** Sets what runs when the channel is ready for {@code op} ({@link SelectionKey#OP_READ} and so on). */
    void handler(int op, PollerHandler handler);

    /** Adds {@code ops} to the interest set. */
    void register(int ops);

    /** Removes {@code ops} from the interest set. */
    void clear(int ops);

    /** Whether any of {@code ops} is in the interest set. */
    boolean isRegistered(int ops);

    /** Deregisters the channel (it does not close it). */
    void cancel();

    @FunctionalInterface
    interface PollerHandler
    {
        /** Returns how much work was done, for the worker's idle strategy. */
        int onReady(PollerKey key);
    }
}
