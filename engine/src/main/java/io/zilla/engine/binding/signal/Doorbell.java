/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.signal;

/**
 * A wake-up that any thread may send to one worker, for state that threads share (the kafka cache's partitions, read
 * by every worker and written by one): {@link #ring()} has the worker run the doorbell's handler on its own thread at
 * its next duty cycle, waking it if it is blocked. Rings that come before the handler runs are one: the handler looks
 * at what changed, not at how often. Ringing allocates nothing and takes no lock, so a writer may ring once per batch.
 */
public interface Doorbell extends AutoCloseable
{
    /** Has the handler run on the doorbell's worker soon; rings until then add nothing. May be called from any thread. */
    void ring();

    /** The handler runs no more; a ring after this is ignored. Called on the doorbell's worker. */
    @Override
    void close();
}
