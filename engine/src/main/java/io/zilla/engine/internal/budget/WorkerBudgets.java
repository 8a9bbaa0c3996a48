/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.budget;

import java.util.ArrayList;
import java.util.function.LongConsumer;

import io.zilla.engine.binding.budget.BudgetCreditor;
import io.zilla.engine.binding.budget.BudgetDebitor;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;

/**
 * The shared budgets of one worker. A creditor's credit reaches the watchers that came up short only after the
 * frame being handled is done ({@link #flush}), so that a binding never re-enters another stream's handler.
 */
public final class WorkerBudgets implements BudgetCreditor, BudgetDebitor
{
    private final int workerIndex;
    private final Long2LongHashMap available = new Long2LongHashMap(-1L);
    private final Long2ObjectHashMap<Long2ObjectHashMap<LongConsumer>> watchers = new Long2ObjectHashMap<>();
    private final LongArrayList pending = new LongArrayList();
    private final ArrayList<LongConsumer> flushing = new ArrayList<>();
    private long nextBudget;

    public WorkerBudgets(int workerIndex)
    {
        this.workerIndex = workerIndex;
    }

    @Override
    public long acquire(long ownerStreamId)
    {
        final long budgetId = (long) workerIndex << 56 | ++nextBudget;
        available.put(budgetId, 0L);
        watchers.put(budgetId, new Long2ObjectHashMap<>());
        return budgetId;
    }

    @Override
    public long credit(long traceId, long budgetId, long credit)
    {
        final long before = available.get(budgetId);
        if (before == -1L)
        {
            return -1L;
        }
        final long after = before + credit;
        available.put(budgetId, after);
        if (credit > 0 && !pending.containsLong(budgetId))
        {
            pending.addLong(budgetId);
        }
        return after;
    }

    @Override
    public long available(long budgetId)
    {
        return Math.max(available.get(budgetId), 0L);
    }

    @Override
    public void release(long budgetId)
    {
        available.remove(budgetId);
        watchers.remove(budgetId);
    }

    @Override
    public long acquire(long budgetId, long watcherId, LongConsumer flusher)
    {
        final Long2ObjectHashMap<LongConsumer> budgetWatchers = watchers.get(budgetId);
        if (budgetWatchers == null)
        {
            return NO_DEBITOR_INDEX;
        }
        budgetWatchers.put(watcherId, flusher);
        return budgetId;
    }

    @Override
    public int claim(long traceId, long debitorIndex, long watcherId, int minimum, int maximum)
    {
        final long credit = available.get(debitorIndex);
        if (credit < minimum || credit <= 0)
        {
            return 0;
        }
        final int claimed = (int) Math.min(credit, maximum);
        available.put(debitorIndex, credit - claimed);
        return claimed;
    }

    @Override
    public void release(long debitorIndex, long watcherId)
    {
        final Long2ObjectHashMap<LongConsumer> budgetWatchers = watchers.get(debitorIndex);
        if (budgetWatchers != null)
        {
            budgetWatchers.remove(watcherId);
        }
    }

    /** Lets the watchers of budgets that gained credit try again; returns how many budgets were flushed. */
    public int flush(long traceId)
    {
        final int count = pending.size();
        for (int i = 0; i < count; i++)
        {
            final Long2ObjectHashMap<LongConsumer> budgetWatchers = watchers.get(pending.getLong(i));
            if (budgetWatchers != null)
            {
                // a copy: a watcher that is flushed may release itself, or its budget
                flushing.addAll(budgetWatchers.values());
            }
        }
        pending.clear();
        for (int i = 0; i < flushing.size(); i++)
        {
            flushing.get(i).accept(traceId);
        }
        flushing.clear();
        return count;
    }
}
