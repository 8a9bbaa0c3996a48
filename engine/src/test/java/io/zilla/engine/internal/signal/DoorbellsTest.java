/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.signal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.atomic.AtomicInteger;

import io.zilla.engine.binding.signal.Doorbell;
import org.junit.jupiter.api.Test;

/** One worker's doorbells, without a worker: what one drain runs. */
class DoorbellsTest
{
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

        assertEquals(2, doorbells.drain(), "both doorbells, each once");
        assertEquals(1, runs.get());
        assertEquals(1, other.get());
        assertEquals(1, doorbells.drain());
        assertEquals(2, runs.get());
        assertEquals(1, doorbells.drain());
        assertEquals(3, runs.get());
        assertEquals(0, doorbells.drain(), "nothing rang again");
    }
}
