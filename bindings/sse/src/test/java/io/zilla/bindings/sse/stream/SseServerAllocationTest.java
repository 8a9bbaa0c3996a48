/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the worker allocates per event through tcp -> http -> sse server -> a mapping that allocates nothing
 * ({@link SseTickerBinding}), once warm: nothing. Counted in bytes on the worker thread (ThreadMXBean) over windows
 * of events read by a client, never in time.
 */
class SseServerAllocationTest
{
    private static final int WARMUP = 200_000;
    private static final int EVENTS = 20_000;
    private static final int ATTEMPTS = 8;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(SseServerAllocationTest.class).binding(new SseTickerBinding());

    @Test
    void shouldAllocateNothingPerEventOnceWarm() throws Exception
    {
        ThreadStats.enable();
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).start("ticker.yaml");
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.getOutputStream().write("GET /ticks HTTP/1.1\r\nHost: localhost\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            final byte[] event = SseTickerBinding.EVENT.getBytes(StandardCharsets.US_ASCII);
            final EventCounter counter = new EventCounter(event);
            counter.readHead(in);
            counter.read(in, WARMUP);

            final List<Long> windows = new ArrayList<>();
            boolean clean = false;
            for (int attempt = 0; attempt < ATTEMPTS && !clean; attempt++)
            {
                final ThreadStats before = ThreadStats.of("zilla-worker-");
                counter.read(in, EVENTS);
                final ThreadStats after = ThreadStats.of("zilla-worker-");
                final long allocated = after.minus(before).allocated();
                windows.add(allocated);
                clean = allocated == 0L;
            }
            System.out.printf("sse server -> ticker: bytes allocated on the worker per window of %d events: %s%n", EVENTS,
                windows);
            assertTrue(clean, "bytes the worker allocated in each window of " + EVENTS + " events: " + windows);
        }
    }

    /** Reads the chunked body of the response and counts the events in it (the ticker's event, over and over). */
    private static final class EventCounter
    {
        private final byte[] event;
        private final byte[] chunk = new byte[64 * 1024];
        private long position;

        EventCounter(byte[] event)
        {
            this.event = event;
        }

        void readHead(InputStream in) throws Exception
        {
            // the head ends at the blank line; the body is chunked: its framing is skipped by counting event bytes
            int matched = 0;
            final byte[] end = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
            while (matched < end.length)
            {
                final int b = in.read();
                assertTrue(b >= 0);
                matched = b == end[matched] ? matched + 1 : b == end[0] ? 1 : 0;
            }
        }

        /** Reads until {@code count} more events' worth of bytes arrived (chunk framing and the retry line included). */
        void read(InputStream in, int count) throws Exception
        {
            final long target = position + (long) count * event.length;
            while (position < target)
            {
                final int n = in.read(chunk);
                assertEquals(true, n > 0, "the stream ended");
                position += n;
            }
        }
    }
}
