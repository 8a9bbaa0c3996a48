/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteBuffer;

import org.junit.jupiter.api.Test;

class DirectViewsTest
{
    @Test
    void shouldGiveEveryBufferAViewAndKeepTheFirstOnesWhileNewOnesCome()
    {
        final DirectViews views = new DirectViews();
        final ByteBuffer ring = ByteBuffer.allocateDirect(64);
        final ByteBuffer ringView = views.viewOf(ring);
        assertNotNull(ringView);
        // the buffer pool's chunks come and go after bursts: far more of them over time than the views kept
        for (int chunk = 0; chunk < 40; chunk++)
        {
            final ByteBuffer memory = ByteBuffer.allocateDirect(64);
            memory.put(0, (byte) chunk);
            final ByteBuffer view = views.viewOf(memory);
            assertNotNull(view, "chunk " + chunk + " written from without a copy");
            assertEquals((byte) chunk, view.get(0));
            assertSame(view, views.viewOf(memory), "a view made once");
            assertSame(ringView, views.viewOf(ring), "the ring's view stays");
        }
    }
}
