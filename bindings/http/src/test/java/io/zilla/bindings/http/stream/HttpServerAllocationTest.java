/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.connect;
import static io.zilla.bindings.http.stream.HttpPeers.freePort;
import static io.zilla.bindings.http.stream.HttpPeers.read;
import static io.zilla.bindings.http.stream.HttpPeers.startServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the worker allocates per keep-alive request through http server -> echo, once warm: nothing. The connection
 * reuses its exchange, the echo its servers, the engine its stream pairs, and the header timer its timer. Counted in
 * bytes on the worker thread (ThreadMXBean) over windows of requests, never in time.
 */
class HttpServerAllocationTest
{
    private static final int WARMUP = 20_000;
    private static final int REQUESTS = 3_000;
    private static final int ATTEMPTS = 8;

    // a body with a length, a chunked body, and a GET: the response to each is chunked (the echo gives no length)
    private static final byte[][] REQUESTS_SENT = {
        ascii("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 16\r\n\r\n0123456789abcdef"),
        ascii("POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "6\r\nfedcba\r\n4\r\n9876\r\n0\r\n\r\n"),
        ascii("GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n"),
    };
    private static final String[] BODIES = {"0123456789abcdef", "fedcba9876", ""};

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpServerAllocationTest.class);

    @Test
    void shouldAllocateNothingPerRequestOnceWarm() throws Exception
    {
        assertNothingAllocated(startServer(engine, 10000).http(), "http server -> echo");
    }

    // a request's metrics live in its reused exchange, and recording is increments in the workers' shared memory
    @Test
    void shouldAllocateNothingPerRequestWithEveryMetricOn() throws Exception
    {
        final int port = freePort();
        engine.env("PORT", Integer.toString(port)).start("metrics.yaml");
        assertNothingAllocated(port, "http server -> echo, every http.* and stream.* metric on");
    }

    // a label set's histograms are found by an int key in a primitive map: labels are written once per set, not per request
    @Test
    void shouldAllocateNothingPerRequestWithAttributes() throws Exception
    {
        final int port = freePort();
        engine.env("PORT", Integer.toString(port)).start("metrics-attributes.yaml");
        assertNothingAllocated(port, "http server -> echo, every metric on, labelled by method and status");
    }

    private static void assertNothingAllocated(int port, String graph) throws Exception
    {
        ThreadStats.enable();
        try (Socket socket = connect(port))
        {
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            exchange(out, in, WARMUP);

            // a window may hold a one-time cost of the JIT (a constant resolved, compiled code deoptimized the first
            // time a branch is taken), which does not come back; a cost per request would be in every window
            final List<Long> windows = new ArrayList<>();
            boolean clean = false;
            for (int attempt = 0; attempt < ATTEMPTS && !clean; attempt++)
            {
                final ThreadStats before = ThreadStats.of("zilla-worker-");
                exchange(out, in, REQUESTS);
                final ThreadStats after = ThreadStats.of("zilla-worker-");
                final long allocated = after.minus(before).allocated();
                windows.add(allocated);
                clean = allocated == 0L;
            }
            System.out.printf("%s: bytes allocated on the worker per window of %d requests: %s%n", graph, REQUESTS, windows);
            assertTrue(clean, "bytes the worker allocated in each window of " + REQUESTS + " requests: " + windows);
        }
    }

    private static void exchange(OutputStream out, InputStream in, int count) throws Exception
    {
        for (int i = 0; i < count; i++)
        {
            final int kind = i % REQUESTS_SENT.length;
            out.write(REQUESTS_SENT[kind]);
            out.flush();
            assertEquals(BODIES[kind], read(in, false).text());
        }
    }

    private static byte[] ascii(String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
