/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.budget;

import java.util.function.LongConsumer;

/** The stream side of a shared budget: claims credit before sending Data, and watches for more when short. */
public interface BudgetDebitor
{
    long NO_DEBITOR_INDEX = -1L;

    /**
     * Registers a stream that draws on the budget; {@code flusher} runs (with a trace id) when credit becomes
     * available after a claim came up short.
     *
     * @return the index to claim with
     */
    long acquire(long budgetId, long watcherId, LongConsumer flusher);

    /**
     * Takes between {@code minimum} and {@code maximum} bytes of credit, as much as is available.
     *
     * @return the bytes taken, or 0 when fewer than {@code minimum} are available (the watcher is then
     *         flushed once more credit arrives)
     */
    int claim(long traceId, long debitorIndex, long watcherId, int minimum, int maximum);

    /** Stops drawing on the budget. */
    void release(long debitorIndex, long watcherId);
}
