/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.budget;

/**
 * The owner side of shared budgets: a connection that multiplexes streams (HTTP/2, MQTT) creates a budget,
 * credits it as its peer gives credit, and its streams draw on it through a {@link BudgetDebitor}.
 */
public interface BudgetCreditor
{
    long NO_BUDGET_ID = 0L;

    /** Creates a budget with no credit; returns its id, to send in Window frames. */
    long acquire(long ownerStreamId);

    /** Adds credit (may be negative); returns the credit after it. Watchers run if credit became available. */
    long credit(long traceId, long budgetId, long credit);

    /** The credit left. */
    long available(long budgetId);

    /** Deletes the budget; its watchers are dropped. */
    void release(long budgetId);
}
