/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.signal;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.binding.signal.Signaler;
import org.agrona.DeadlineTimerWheel;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * A worker's timers on agrona's timer wheel. A timer that fires, and a signal for now, become a Signal frame
 * written to the worker's ring by {@code delivery}, so that they reach the stream like any other frame.
 */
public final class WorkerSignaler implements Signaler
{
    private static final long TICK_MILLIS = 8;
    /**
     * One turn of the wheel is 1,024 ms; a timer further out shares its spoke with those of later turns (each carries
     * its deadline, checked when the spoke comes round). The wheel's array is its spokes times the most timers any one
     * spoke holds (doubled as needed, never shrunk): timers set in a burst (10,000 connections opened together, each
     * with a header timeout and a keep-alive) crowd a few spokes, and 512 spokes made that 0.5-2 MiB per worker.
     */
    private static final int TICKS_PER_WHEEL = 128;
    /**
     * The most fired or cancelled timers kept for reuse. A timer that is set again at once (a keep-alive, a timeout
     * moved) takes one back, so this many cover the churn; beyond it they go to the GC, so that a burst of timers (the
     * header timeouts of 10,000 connections opened together) is not held for as long as the worker runs.
     */
    static final int MAX_SPARES = 1024;

    private final DeadlineTimerWheel wheel;
    private final Long2ObjectHashMap<Timer> timers = new Long2ObjectHashMap<>();
    private final ArrayDeque<Timer> spares = new ArrayDeque<>();
    private final SignalDelivery delivery;
    private final DeadlineTimerWheel.TimerHandler onExpiry = this::onExpiry;

    public WorkerSignaler(long nowMillis, SignalDelivery delivery)
    {
        this.wheel = new DeadlineTimerWheel(TimeUnit.MILLISECONDS, nowMillis, TICK_MILLIS, TICKS_PER_WHEEL);
        this.delivery = delivery;
    }

    @Override
    public long signalAt(long timeMillis, long originId, long routedId, long streamId, long traceId, int signalId,
        int contextId)
    {
        final long timerId = wheel.scheduleTimer(timeMillis);
        final Timer timer = spares.isEmpty() ? new Timer() : spares.poll();
        timer.set(originId, routedId, streamId, traceId, signalId, contextId);
        timers.put(timerId, timer);
        // timer ids start at 0; cancel ids are offset by one so that NO_CANCEL_ID never names a timer
        return timerId + 1;
    }

    @Override
    public void signalNow(long originId, long routedId, long streamId, long traceId, int signalId, int contextId)
    {
        delivery.deliver(originId, routedId, streamId, traceId, NO_CANCEL_ID, signalId, contextId);
    }

    @Override
    public boolean cancel(long cancelId)
    {
        final long timerId = cancelId - 1;
        final Timer timer = timers.remove(timerId);
        if (timer != null)
        {
            release(timer);
            wheel.cancelTimer(timerId);
        }
        return timer != null;
    }

    /** Fires the timers due by {@code nowMillis}; returns how many. */
    public int poll(long nowMillis)
    {
        return wheel.timerCount() == 0 ? 0 : wheel.poll(nowMillis, onExpiry, Integer.MAX_VALUE);
    }

    /** Millis until the next timer could fire, or {@code Long.MAX_VALUE} with none pending. */
    public long millisToNext(long nowMillis)
    {
        return wheel.timerCount() == 0 ? Long.MAX_VALUE : Math.max(0, wheel.currentTickTime() + TICK_MILLIS - nowMillis);
    }

    private boolean onExpiry(TimeUnit timeUnit, long now, long timerId)
    {
        final Timer timer = timers.remove(timerId);
        if (timer != null)
        {
            delivery.deliver(timer.originId, timer.routedId, timer.streamId, timer.traceId, timerId + 1, timer.signalId,
                timer.contextId);
            release(timer);
        }
        return true;
    }

    private void release(Timer timer)
    {
        if (spares.size() < MAX_SPARES)
        {
            spares.add(timer);
        }
    }

    @FunctionalInterface
    public interface SignalDelivery
    {
        void deliver(long originId, long routedId, long streamId, long traceId, long cancelId, int signalId, int contextId);
    }

    private static final class Timer
    {
        long originId;
        long routedId;
        long streamId;
        long traceId;
        int signalId;
        int contextId;

        void set(long originId, long routedId, long streamId, long traceId, int signalId, int contextId)
        {
            this.originId = originId;
            this.routedId = routedId;
            this.streamId = streamId;
            this.traceId = traceId;
            this.signalId = signalId;
            this.contextId = contextId;
        }
    }
}
