/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.awaitListening;
import static io.zilla.bindings.http.stream.HttpPeers.freePort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.ThreadStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the worker allocates per request through http server (h2c) -> http client (HTTP/2) -> nghttpd, one request
 * after the other on one connection each side, after a warm-up: the state of the two streams (the server's and the
 * client's: their objects, stream sides and handlers) and nothing per frame.
 */
class Http2ClientAllocationTest
{
    private static final int WARMUP = 5_000;
    private static final int REQUESTS = 5_000;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2ClientAllocationTest.class);

    @TempDir
    Path directory;

    @Test
    void shouldAllocateLittlePerRequest() throws Exception
    {
        final byte[] content = new byte[8 * 1024];
        new Random(11).nextBytes(content);
        Files.write(directory.resolve("file.bin"), content);
        final int upstream = freePort();
        final Process nghttpd = new ProcessBuilder("nghttpd", "--no-tls", "-a", "127.0.0.1", "-d", directory.toString(),
            Integer.toString(upstream)).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try
        {
            awaitListening(upstream);
            final int port = freePort();
            engine.env("PORT", Integer.toString(port))
                .env("UPSTREAM_PORT", Integer.toString(upstream))
                .start("h2client.yaml");
            ThreadStats.enable();
            try (Http2RawClient client = new Http2RawClient(port).handshake())
            {
                exchange(client, 1, WARMUP, content);
                final ThreadStats before = ThreadStats.of("zilla-worker-");
                exchange(client, 1 + 2 * WARMUP, REQUESTS, content);
                final ThreadStats after = ThreadStats.of("zilla-worker-");
                final long perRequest = after.minus(before).allocated() / REQUESTS;
                System.out.printf("http server (h2c) -> http client (HTTP/2) -> nghttpd: %d B allocated per request on "
                    + "the worker%n", perRequest);
                // the server's stream alone is about 440 B; an allocation per frame would add far more
                assertTrue(perRequest < 2048, perRequest + " B per request");
            }
        }
        finally
        {
            nghttpd.destroy();
            nghttpd.waitFor(10, TimeUnit.SECONDS);
        }
    }

    private static void exchange(Http2RawClient client, int firstStreamId, int count, byte[] content) throws Exception
    {
        for (int i = 0; i < count; i++)
        {
            final int streamId = firstStreamId + 2 * i;
            client.request(streamId, "GET", "/file.bin", true);
            assertArrayEquals(content, client.body(streamId));
        }
    }
}
