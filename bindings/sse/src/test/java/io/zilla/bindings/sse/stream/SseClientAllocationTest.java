/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import com.sun.net.httpserver.HttpServer;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the worker allocates per proxied event through tcp -> http server -> sse server -> sse client -> http client ->
 * tcp client -> an upstream that writes events for ever, once warm: nothing. Counted in bytes on the worker thread over
 * windows of bytes read by the subscriber, never in time.
 */
class SseClientAllocationTest
{
    private static final byte[] UPSTREAM_EVENT = "id: 7\r\nevent: tick\r\ndata: {\"price\":42}\r\n\r\n"
        .getBytes(StandardCharsets.US_ASCII);
    private static final int EVENT_LENGTH = "id: 7\nevent: tick\ndata: {\"price\":42}\n\n".length();
    private static final int WARMUP = 200_000;
    private static final int EVENTS = 20_000;
    private static final int ATTEMPTS = 8;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(SseClientAllocationTest.class);

    private HttpServer upstream;

    @AfterEach
    void stop()
    {
        if (upstream != null)
        {
            upstream.stop(0);
        }
    }

    @Test
    void shouldAllocateNothingPerProxiedEventOnceWarm() throws Exception
    {
        ThreadStats.enable();
        final int upstreamPort = FreePorts.next();
        upstream = HttpServer.create(new InetSocketAddress("127.0.0.1", upstreamPort), 0);
        upstream.createContext("/feed/ticks", exchange ->
        {
            exchange.getResponseHeaders().add("content-type", "text/event-stream");
            exchange.sendResponseHeaders(200, 0);
            final byte[] batch = new byte[UPSTREAM_EVENT.length * 64];
            for (int i = 0; i < 64; i++)
            {
                System.arraycopy(UPSTREAM_EVENT, 0, batch, i * UPSTREAM_EVENT.length, UPSTREAM_EVENT.length);
            }
            try (OutputStream out = exchange.getResponseBody())
            {
                while (true)
                {
                    out.write(batch);
                }
            }
            catch (IOException ex)
            {
                // the subscriber went
            }
        });
        upstream.start();
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("UPSTREAM_PORT", Integer.toString(upstreamPort)).start("client.yaml");
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress("127.0.0.1", port));
            socket.getOutputStream().write("GET /feed/ticks HTTP/1.1\r\nHost: localhost\r\n\r\n"
                .getBytes(StandardCharsets.US_ASCII));
            final InputStream in = socket.getInputStream();
            final byte[] chunk = new byte[64 * 1024];
            read(in, chunk, (long) WARMUP * EVENT_LENGTH);
            final List<Long> windows = new ArrayList<>();
            boolean clean = false;
            for (int attempt = 0; attempt < ATTEMPTS && !clean; attempt++)
            {
                final ThreadStats before = ThreadStats.of("zilla-worker-");
                read(in, chunk, (long) EVENTS * EVENT_LENGTH);
                final ThreadStats after = ThreadStats.of("zilla-worker-");
                final long allocated = after.minus(before).allocated();
                windows.add(allocated);
                clean = allocated == 0L;
            }
            System.out.printf("sse server -> sse client -> upstream: bytes allocated on the worker per window of %d events:"
                + " %s%n", EVENTS, windows);
            assertTrue(clean, "bytes the worker allocated in each window of " + EVENTS + " events: " + windows);
        }
    }

    private static void read(InputStream in, byte[] chunk, long bytes) throws IOException
    {
        long read = 0;
        while (read < bytes)
        {
            final int n = in.read(chunk);
            assertTrue(n > 0, "the stream ended");
            read += n;
        }
    }
}
