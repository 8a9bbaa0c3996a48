/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.signal;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.BooleanSupplier;

import io.zilla.engine.binding.signal.Doorbell;
import org.agrona.concurrent.ManyToOneConcurrentArrayQueue;

/**
 * One worker's doorbells. A ring puts the doorbell in the worker's queue unless it is there already (a flag on the
 * doorbell, set by compare-and-set), so the queue never holds a doorbell twice, never fills (it has room for them all)
 * and a ring allocates nothing. The worker drains the queue every duty cycle, clearing each flag before it runs the
 * handler, so a ring during the handler is not lost.
 * <p>
 * A worker about to block says so ({@link #parking}); a ring then wakes it. The worker looks at the queue again after
 * saying it parks, and a ring looks at the flag after queueing: one of the two always sees the other.
 */
public final class Doorbells
{
    private final ManyToOneConcurrentArrayQueue<WorkerDoorbell> rung;
    private final Runnable wakeup;
    private final int capacity;
    private int supplied;
    private volatile boolean parking;

    /** @param wakeup wakes the worker from its blocking poll; called from ringing threads */
    public Doorbells(int capacity, Runnable wakeup)
    {
        this.rung = new ManyToOneConcurrentArrayQueue<>(capacity);
        this.capacity = rung.capacity();
        this.wakeup = wakeup;
    }

    /** On the worker. */
    public Doorbell supply(Runnable onRing)
    {
        if (supplied >= capacity)
        {
            throw new IllegalStateException("a worker has room for " + capacity + " doorbells (zilla.engine.doorbells)");
        }
        supplied++;
        return new WorkerDoorbell(onRing);
    }

    /**
     * Runs the handlers of the doorbells rung since the last call; returns how many ran. On the worker. A doorbell rung
     * again by its own handler (work left for the next duty cycle) runs in the next drain, not again in this one.
     * Stops before a doorbell while {@code congested} says so: the rest stay queued, in their order, for a later
     * drain. A handler writes frames for the worker to dispatch (the kafka cache's readers write up to a budget each),
     * so a hundred doorbells rung at once would otherwise put a hundred budgets into the ring before the worker
     * dispatched any of them.
     */
    public int drain(BooleanSupplier congested)
    {
        int work = 0;
        WorkerDoorbell doorbell;
        for (int queued = rung.size(); queued > 0 && !congested.getAsBoolean() && (doorbell = rung.poll()) != null;
            queued--)
        {
            if (!doorbell.open)
            {
                // closed while queued: left marked queued, no ring queues it again, and its room is given back
                supplied--;
                continue;
            }
            // cleared first: a ring while the handler runs queues the doorbell again, for the next drain
            doorbell.queued = 0;
            doorbell.onRing.run();
            work++;
        }
        return work;
    }

    /**
     * The worker is about to block (true) or has stopped blocking (false).
     *
     * @return whether a doorbell is waiting, so the worker must not block
     */
    public boolean parking(boolean parking)
    {
        this.parking = parking;
        return parking && !rung.isEmpty();
    }

    private final class WorkerDoorbell implements Doorbell
    {
        private static final AtomicIntegerFieldUpdater<WorkerDoorbell> QUEUED =
            AtomicIntegerFieldUpdater.newUpdater(WorkerDoorbell.class, "queued");

        private final Runnable onRing;
        private volatile int queued;
        // only the worker reads and writes it: rings go by the queued flag alone
        private boolean open = true;

        WorkerDoorbell(Runnable onRing)
        {
            this.onRing = onRing;
        }

        @Override
        public void ring()
        {
            if (QUEUED.compareAndSet(this, 0, 1))
            {
                rung.offer(this);
                if (parking)
                {
                    wakeup.run();
                }
            }
        }

        @Override
        public void close()
        {
            if (open)
            {
                open = false;
                // marked queued for good unless it is in the queue now: then the drain gives its room back
                if (QUEUED.compareAndSet(this, 0, 1))
                {
                    supplied--;
                }
            }
        }
    }
}
