/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.budget;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.binding.budget.BudgetCreditor;
import io.zilla.engine.binding.budget.BudgetDebitor;
import org.junit.jupiter.api.Test;

/** A shared budget: streams draw on one connection's credit, and those that came up short hear of new credit. */
class WorkerBudgetsTest
{
    private final WorkerBudgets budgets = new WorkerBudgets(3);

    @Test
    void shouldGiveNothingBeforeCredit()
    {
        final long budgetId = budgets.acquire(1L);
        final long debitor = budgets.acquire(budgetId, 11L, traceId -> { });

        assertNotEquals(BudgetCreditor.NO_BUDGET_ID, budgetId);
        assertEquals(3, budgetId >>> 56, "the budget id names its worker");
        assertEquals(0, budgets.claim(0L, debitor, 11L, 1, 100));
    }

    @Test
    void shouldShareCreditBetweenStreams()
    {
        final long budgetId = budgets.acquire(1L);
        final long first = budgets.acquire(budgetId, 11L, traceId -> { });
        final long second = budgets.acquire(budgetId, 13L, traceId -> { });
        budgets.credit(0L, budgetId, 150);

        assertEquals(100, budgets.claim(0L, first, 11L, 1, 100));
        assertEquals(50, budgets.claim(0L, second, 13L, 1, 100));
        assertEquals(0, budgets.claim(0L, first, 11L, 1, 100));
        assertEquals(0, budgets.available(budgetId));
    }

    @Test
    void shouldRefuseLessThanTheMinimum()
    {
        final long budgetId = budgets.acquire(1L);
        final long debitor = budgets.acquire(budgetId, 11L, traceId -> { });
        budgets.credit(0L, budgetId, 40);

        assertEquals(0, budgets.claim(0L, debitor, 11L, 50, 100));
        assertEquals(40, budgets.available(budgetId));
    }

    @Test
    void shouldFlushWatchersOnlyAfterCreditAndOnlyOnce()
    {
        final List<Long> flushed = new ArrayList<>();
        final long budgetId = budgets.acquire(1L);
        budgets.acquire(budgetId, 11L, flushed::add);

        assertEquals(0, budgets.flush(7L));
        budgets.credit(7L, budgetId, 10);
        budgets.credit(8L, budgetId, 10);

        assertEquals(1, budgets.flush(9L));
        assertEquals(List.of(9L), flushed);
        assertEquals(0, budgets.flush(10L));
    }

    @Test
    void shouldLetAWatcherReleaseItselfWhileFlushed()
    {
        final List<Long> flushed = new ArrayList<>();
        final long budgetId = budgets.acquire(1L);
        budgets.acquire(budgetId, 11L, traceId ->
        {
            flushed.add(traceId);
            budgets.release(budgetId, 11L);
        });
        budgets.acquire(budgetId, 13L, flushed::add);
        budgets.credit(0L, budgetId, 10);

        budgets.flush(5L);
        budgets.credit(0L, budgetId, 10);
        budgets.flush(6L);

        assertEquals(List.of(5L, 5L, 6L), flushed);
    }

    @Test
    void shouldForgetReleasedBudget()
    {
        final long budgetId = budgets.acquire(1L);
        budgets.release(budgetId);

        assertEquals(-1L, budgets.credit(0L, budgetId, 10));
        assertEquals(BudgetDebitor.NO_DEBITOR_INDEX, budgets.acquire(budgetId, 11L, traceId -> { }));
    }
}
