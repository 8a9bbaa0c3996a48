/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** EngineContext.supplyDoorbell: rung from any thread, run on the worker, blocked or not, coalesced, allocation-free. */
class DoorbellTest
{
    private final DoorbellBinding binding = new DoorbellBinding();

    // a worker that blocks at once when idle, for up to a minute: only a wake-up brings it back in time
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().binding(binding)
        .property(EngineConfiguration.IDLE_SPINS, 0)
        .property(EngineConfiguration.IDLE_YIELDS, 0)
        .property(EngineConfiguration.IDLE_PARK_MAX_MILLIS, 60_000);

    @BeforeEach
    void start() throws Exception
    {
        engine.start(DoorbellBinding.namespace());
        assertTrue(binding.attached.await(20, TimeUnit.SECONDS));
    }

    @Test
    void shouldRunTheHandlerOnTheWorkerWokenFromItsBlock() throws Exception
    {
        // long enough for the worker to block in its poll
        Thread.sleep(300);
        final long rung = System.nanoTime();

        binding.doorbell.ring();

        awaitRuns(1);
        final long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - rung);
        assertTrue(millis < 5_000, () -> "the handler ran " + millis + " ms after the ring");
        assertSame(binding.worker, binding.handlerThread);
    }

    @Test
    void shouldRunOnceMoreForAllTheRingsWhileTheHandlerRuns() throws Exception
    {
        final CountDownLatch release = new CountDownLatch(1);
        binding.holding = new CountDownLatch(1);
        binding.hold = release;
        binding.doorbell.ring();
        assertTrue(binding.holding.await(20, TimeUnit.SECONDS));

        for (int i = 0; i < 1_000; i++)
        {
            binding.doorbell.ring();
        }
        release.countDown();

        awaitRuns(2);
        Thread.sleep(300);
        assertEquals(2, binding.runs.get(), "the first run, then one for the thousand rings made while it ran");
    }

    @Test
    void shouldAllocateNothingToRingOrToRun() throws Exception
    {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final long ringerId = Thread.currentThread().getId();
        final long workerId = binding.worker.getId();
        // warmed up: the first ten thousand cycles cost the worker about 25 KB once (compiling its paths), not per ring
        cycles(10_000);
        final long ringerBefore = threads.getThreadAllocatedBytes(ringerId);
        final long workerBefore = threads.getThreadAllocatedBytes(workerId);

        final int cycles = 50_000;
        cycles(cycles);

        final long ringer = threads.getThreadAllocatedBytes(ringerId) - ringerBefore;
        final long woken = threads.getThreadAllocatedBytes(workerId) - workerBefore;
        // one object is at least 16 bytes: less than one per hundred cycles is none per ring (measured: 0 and 392 B)
        assertTrue(ringer < 16L * cycles / 100, () -> "the ringing thread allocated " + ringer + " B for " + cycles);
        assertTrue(woken < 16L * cycles / 100, () -> "the worker allocated " + woken + " B for " + cycles + " wake-ups");
    }

    /** Rings and waits for the run, {@code count} times: the worker blocks between them, so each one wakes it. */
    private void cycles(int count) throws InterruptedException
    {
        for (int i = 0; i < count; i++)
        {
            final long expected = binding.runs.get() + 1;
            binding.doorbell.ring();
            while (binding.runs.get() < expected)
            {
                Thread.onSpinWait();
            }
        }
    }

    private void awaitRuns(long count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (binding.runs.get() < count && System.nanoTime() < deadline)
        {
            Thread.sleep(1);
        }
        assertTrue(binding.runs.get() >= count, () -> "runs: " + binding.runs.get());
    }
}
