/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.signal;

/**
 * Timers and wake-ups for streams. A signal arrives as a Signal frame on {@code streamId}, delivered to the
 * binding that sends on that id (use your own direction's id to signal yourself).
 */
public interface Signaler
{
    long NO_CANCEL_ID = 0L;

    /**
     * Signals the stream at {@code timeMillis} (epoch millis).
     *
     * @return the id to cancel it with
     */
    long signalAt(long timeMillis, long originId, long routedId, long streamId, long traceId, int signalId, int contextId);

    /** Signals the stream as soon as the worker gets to it. */
    void signalNow(long originId, long routedId, long streamId, long traceId, int signalId, int contextId);

    /** Cancels a pending timer; returns whether it had not fired yet. */
    boolean cancel(long cancelId);
}
