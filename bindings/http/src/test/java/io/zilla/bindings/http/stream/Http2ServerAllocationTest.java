/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.Http2RawClient.DATA;
import static io.zilla.bindings.http.stream.Http2RawClient.END_STREAM;
import static io.zilla.bindings.http.stream.Http2RawClient.HEADERS;
import static io.zilla.bindings.http.stream.Http2RawClient.WINDOW_UPDATE;
import static io.zilla.bindings.http.stream.Http2RawClient.int32;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the worker allocates per HTTP/2 request (a stream: HEADERS, DATA, the echoed response) on one connection
 * through http server -> echo, once warm: nothing. The connection reuses its closed streams (their state, stream side
 * and handler), the echo its servers, the engine its stream pairs. Requests go one at a time and eight at once, so
 * that reuse is tested with streams that overlap. Counted in bytes on the worker thread (ThreadMXBean) over windows
 * of requests, never in time.
 */
class Http2ServerAllocationTest
{
    private static final int WARMUP = 12_000;
    private static final int REQUESTS = 2_400;
    private static final int ATTEMPTS = 8;
    private static final int CONCURRENT = 8;
    private static final byte[] BODY = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2ServerAllocationTest.class);

    private int nextStreamId = 1;

    @Test
    void shouldAllocateNothingPerStreamOnceWarm() throws Exception
    {
        ThreadStats.enable();
        final Http2Peers.Ports ports = Http2Peers.start(engine, 100);
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            exchange(client, WARMUP);

            // a window may hold a one-time cost of the JIT, which does not come back; a cost per stream would be in
            // every window
            final List<Long> windows = new ArrayList<>();
            boolean clean = false;
            for (int attempt = 0; attempt < ATTEMPTS && !clean; attempt++)
            {
                final ThreadStats before = ThreadStats.of("zilla-worker-");
                exchange(client, REQUESTS);
                final ThreadStats after = ThreadStats.of("zilla-worker-");
                final long allocated = after.minus(before).allocated();
                windows.add(allocated);
                clean = allocated == 0L;
            }
            System.out.printf("http server (HTTP/2) -> echo: bytes allocated on the worker per window of %d streams: %s%n",
                REQUESTS, windows);
            assertTrue(clean, "bytes the worker allocated in each window of " + REQUESTS + " streams: " + windows);
        }
    }

    // half of the requests one at a time, half in groups of CONCURRENT open together
    private void exchange(Http2RawClient client, int count) throws Exception
    {
        for (int i = 0; i < count / 2; i++)
        {
            final int streamId = nextStreamId;
            nextStreamId += 2;
            client.request(streamId, "POST", "/echo", false);
            client.frame(DATA, END_STREAM, streamId, BODY);
            assertArrayEquals(BODY, client.body(streamId));
        }
        for (int i = 0; i < count / 2; i += CONCURRENT)
        {
            final int first = nextStreamId;
            for (int n = 0; n < CONCURRENT; n++)
            {
                client.request(nextStreamId, "POST", "/echo", false);
                nextStreamId += 2;
            }
            for (int n = 0; n < CONCURRENT; n++)
            {
                client.frame(DATA, END_STREAM, first + 2 * n, BODY);
            }
            awaitBodies(client, first);
        }
    }

    // every stream of the group echoes BODY whole, in any order
    private static void awaitBodies(Http2RawClient client, int first) throws Exception
    {
        final int[] received = new int[CONCURRENT];
        int ended = 0;
        while (ended < CONCURRENT)
        {
            final Http2RawClient.Frame frame = client.read();
            assertNotNull(frame, "the connection closed");
            final int n = (frame.streamId() - first) / 2;
            if (frame.type() != DATA && frame.type() != HEADERS || n < 0 || n >= CONCURRENT)
            {
                continue;
            }
            if (frame.type() == DATA && frame.payload().length > 0)
            {
                final int length = frame.payload().length;
                assertArrayEquals(Arrays.copyOfRange(BODY, received[n], received[n] + length), frame.payload());
                received[n] += length;
                client.frame(WINDOW_UPDATE, 0, 0, int32(frame.payload().length));
            }
            if ((frame.flags() & END_STREAM) != 0)
            {
                assertEquals(BODY.length, received[n], "stream " + frame.streamId());
                ended++;
            }
        }
    }
}
