/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.event;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.internal.EngineDirectory;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.AtomicCounter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The event ring takes any event without throwing: a worker reports its faults through it. */
class EventLogTest
{
    private static final int CAPACITY = 64 * 1024;

    @TempDir
    Path directory;

    @Test
    void shouldCutADetailTooLongForOneRecord()
    {
        // a whole stack trace (zilla start -e) can be longer than the ring takes in one record, capacity / 8: the ring
        // threw, and the worker that reported a stream's fault died of it
        final AtomicCounter dropped = new AtomicCounter(new UnsafeBuffer(new byte[128]), 0);
        try (EngineDirectory engine = EngineDirectory.lock(directory);
            EventLog events = new EventLog(engine, CAPACITY, dropped))
        {
            final String trace = "java.lang.StackOverflowError\n" + "\tat io.zilla.Deep.call(Deep.java:1)\n".repeat(2_000);

            events.write(1L, 2L, "north_http_server", "engine.stream.failed", trace);
            events.write(3L, 4L, "north_http_server", "engine.stream.failed", "short");

            final List<EngineEvent> read = new ArrayList<>();
            events.read(read::add);
            assertEquals(2, read.size());
            final String cut = read.get(0).detail();
            assertTrue(cut.startsWith("java.lang.StackOverflowError\n\tat io.zilla.Deep.call"), cut.substring(0, 80));
            assertTrue(cut.endsWith(" [cut: too long for the event ring]"), cut.substring(cut.length() - 80));
            assertTrue(cut.length() < trace.length() && cut.length() > CAPACITY / 16, String.valueOf(cut.length()));
            assertEquals("short", read.get(1).detail());
            assertEquals(0L, dropped.get());
        }
    }
}
