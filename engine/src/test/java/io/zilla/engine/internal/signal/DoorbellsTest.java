/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

import io.zilla.engine.binding.signal.Doorbell;
import org.junit.jupiter.api.Test;

/** One worker's doorbells, without a worker: what one drain runs. */
class DoorbellsTest
{
    private static final BooleanSupplier NEVER = () -> false;

    @Test
    void shouldRunADoorbellRungByItsOwnHandlerInTheNextDrainOnly()
    {
        final Doorbells doorbells = new Doorbells(16, () -> { });
        final AtomicInteger runs = new AtomicInteger();
        final Doorbell[] self = new Doorbell[1];
        // work left after each run, as a handler with a budget leaves it: it rings itself until three runs are done
        self[0] = doorbells.supply(() ->
        {
            if (runs.incrementAndGet() < 3)
            {
                self[0].ring();
            }
        });
        final AtomicInteger other = new AtomicInteger();
        final Doorbell second = doorbells.supply(other::incrementAndGet);

        self[0].ring();
        second.ring();

        assertEquals(2, doorbells.drain(NEVER), "both doorbells, each once");
        assertEquals(1, runs.get());
        assertEquals(1, other.get());
        assertEquals(1, doorbells.drain(NEVER));
        assertEquals(2, runs.get());
        assertEquals(1, doorbells.drain(NEVER));
        assertEquals(3, runs.get());
        assertEquals(0, doorbells.drain(NEVER), "nothing rang again");
    }

    @Test
    void shouldLeaveTheRestQueuedInOrderOnceCongested()
    {
        final Doorbells doorbells = new Doorbells(16, () -> { });
        final StringBuilder ran = new StringBuilder();
        // each handler fills the ring a little, as a cache reader writes its budget: congested after the second
        final AtomicInteger written = new AtomicInteger();
        final BooleanSupplier congested = () -> written.get() >= 2;
        final Doorbell a = doorbells.supply(() -> run(ran, 'a', written));
        final Doorbell b = doorbells.supply(() -> run(ran, 'b', written));
        final Doorbell c = doorbells.supply(() -> run(ran, 'c', written));
        final Doorbell d = doorbells.supply(() -> run(ran, 'd', written));

        a.ring();
        b.ring();
        c.ring();
        d.ring();

        assertEquals(2, doorbells.drain(congested), "stopped once the handlers had congested the ring");
        assertEquals("ab", ran.toString());
        assertEquals(0, doorbells.drain(congested), "nothing runs while congested");
        c.ring();
        assertEquals("ab", ran.toString(), "ringing a queued doorbell again does not run it");

        written.set(0);
        assertEquals(2, doorbells.drain(congested), "the ring drained: the rest, in the order they were rung");
        assertEquals("abcd", ran.toString());
        written.set(0);
        assertEquals(0, doorbells.drain(congested), "each ran once: none was queued twice");
    }

    private static void run(StringBuilder ran, char name, AtomicInteger written)
    {
        ran.append(name);
        written.incrementAndGet();
    }
}
