/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.metrics;

import static io.zilla.engine.metrics.EngineMetrics.ENGINE_BUFFER_SLOTS_CAPACITY;
import static io.zilla.engine.metrics.EngineMetrics.ENGINE_BUFFER_SLOTS_USED;
import static io.zilla.engine.metrics.EngineMetrics.ENGINE_RING_CAPACITY;
import static io.zilla.engine.metrics.EngineMetrics.ENGINE_RING_FULL;
import static io.zilla.engine.metrics.EngineMetrics.ENGINE_RING_USED;
import static io.zilla.engine.metrics.EngineMetrics.ENGINE_SCOPE;
import static io.zilla.engine.metrics.EngineMetrics.ENGINE_WORKERS;
import static io.zilla.engine.metrics.EngineMetrics.ENGINE_WORKER_IDLE;

import java.util.function.IntSupplier;

import org.agrona.concurrent.status.AtomicCounter;

/**
 * One worker's {@code engine.*} metrics, kept whatever zilla.yaml selects (exporters show them when the namespace's
 * {@code telemetry.metrics} does): they cost the loop a clock read around a blocking select, which only an idle worker
 * does, and a few ordered stores at most once a millisecond.
 */
public final class WorkerMetrics
{
    private final AtomicCounter idle;
    private final AtomicCounter ringUsed;
    private final AtomicCounter slotsUsed;
    private final AtomicCounter ringFull;
    private final IntSupplier ringSize;
    private final IntSupplier slotsAcquired;
    private long sampledAt;

    public WorkerMetrics(WorkerCounters counters, IntSupplier ringSize, int ringCapacity, IntSupplier slotsAcquired,
        int slots)
    {
        this.idle = counters.supply(ENGINE_SCOPE, ENGINE_WORKER_IDLE.name());
        this.ringUsed = counters.supply(ENGINE_SCOPE, ENGINE_RING_USED.name());
        this.slotsUsed = counters.supply(ENGINE_SCOPE, ENGINE_BUFFER_SLOTS_USED.name());
        this.ringFull = counters.supply(ENGINE_SCOPE, ENGINE_RING_FULL.name());
        this.ringSize = ringSize;
        this.slotsAcquired = slotsAcquired;
        counters.supply(ENGINE_SCOPE, ENGINE_WORKERS.name()).setRelease(1L);
        counters.supply(ENGINE_SCOPE, ENGINE_RING_CAPACITY.name()).setRelease(ringCapacity);
        counters.supply(ENGINE_SCOPE, ENGINE_BUFFER_SLOTS_CAPACITY.name()).setRelease(slots);
    }

    /** The worker waited {@code nanos} for work. */
    public void idle(long nanos)
    {
        idle.getAndAddRelease(nanos);
    }

    /** A stream was aborted because the ring was full. */
    public void ringFull()
    {
        ringFull.incrementRelease();
    }

    /** Samples the ring and the buffer slots, once per millisecond at most: gauges, read by exporters now and then. */
    public void sample(long nowMillis)
    {
        if (nowMillis != sampledAt)
        {
            sampledAt = nowMillis;
            ringUsed.setRelease(ringSize.getAsInt());
            slotsUsed.setRelease(slotsAcquired.getAsInt());
        }
    }
}
