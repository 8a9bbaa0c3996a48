/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.Http2RawClient.DATA;
import static io.zilla.bindings.http.stream.Http2RawClient.END_STREAM;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the worker allocates per HTTP/2 request (a stream: HEADERS, DATA, the echoed response) on one connection
 * through http server -> echo: the stream's state (its object, its stream side, its handler) and nothing that grows
 * with the bytes. Measured after a warm-up, on the worker thread.
 */
class Http2ServerAllocationTest
{
    private static final int WARMUP = 10_000;
    private static final int REQUESTS = 10_000;
    private static final byte[] BODY = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2ServerAllocationTest.class);

    @Test
    void shouldAllocateLittlePerStream() throws Exception
    {
        ThreadStats.enable();
        final Http2Peers.Ports ports = Http2Peers.start(engine, 100);
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            exchange(client, 1, WARMUP);
            final ThreadStats before = ThreadStats.of("zilla-worker-");
            exchange(client, 1 + 2 * WARMUP, REQUESTS);
            final ThreadStats after = ThreadStats.of("zilla-worker-");
            final long perRequest = after.minus(before).allocated() / REQUESTS;
            System.out.printf("http server (HTTP/2) -> echo: %d B allocated per stream on the worker%n", perRequest);
            assertTrue(perRequest < 1024, perRequest + " B per stream");
        }
    }

    private static void exchange(Http2RawClient client, int firstStreamId, int count) throws Exception
    {
        for (int i = 0; i < count; i++)
        {
            final int streamId = firstStreamId + 2 * i;
            client.request(streamId, "POST", "/echo", false);
            client.frame(DATA, END_STREAM, streamId, BODY);
            assertArrayEquals(BODY, client.body(streamId));
        }
    }
}
