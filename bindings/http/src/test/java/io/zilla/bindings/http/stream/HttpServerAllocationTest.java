/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.connect;
import static io.zilla.bindings.http.stream.HttpPeers.read;
import static io.zilla.bindings.http.stream.HttpPeers.startServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the worker allocates per keep-alive request through http server -> echo: the exchange's state (its object,
 * its stream side, its handler) and nothing that grows with the bytes. Measured after a warm-up, on the worker thread.
 */
class HttpServerAllocationTest
{
    private static final int WARMUP = 10_000;
    private static final int REQUESTS = 10_000;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpServerAllocationTest.class);

    @Test
    void shouldAllocateLittlePerRequest() throws Exception
    {
        ThreadStats.enable();
        final int port = startServer(engine, 10000).http();
        final byte[] request = "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 16\r\n\r\n0123456789abcdef"
            .getBytes(StandardCharsets.US_ASCII);
        try (Socket socket = connect(port))
        {
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            exchange(out, in, request, WARMUP);
            final ThreadStats before = ThreadStats.of("zilla-worker-");
            exchange(out, in, request, REQUESTS);
            final ThreadStats after = ThreadStats.of("zilla-worker-");
            final long perRequest = after.minus(before).allocated() / REQUESTS;
            System.out.printf("http server -> echo: %d B allocated per request on the worker%n", perRequest);
            assertTrue(perRequest < 1024, perRequest + " B per request");
        }
    }

    private static void exchange(OutputStream out, InputStream in, byte[] request, int count) throws Exception
    {
        for (int i = 0; i < count; i++)
        {
            out.write(request);
            out.flush();
            assertEquals("0123456789abcdef", read(in, false).text());
        }
    }
}
