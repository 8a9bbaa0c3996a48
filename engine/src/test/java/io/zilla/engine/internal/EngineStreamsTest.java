/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Random;

import io.zilla.engine.EngineCounters;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.internal.stream.StreamIds;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestServer;
import io.zilla.engine.test.TestStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Streams through a real engine: a test client opens streams to a test server, frames cross the worker's ring. */
class EngineStreamsTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long CLIENT_ID = 1L << 32 | 1;
    private static final long SERVER_ID = 1L << 32 | 2;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldCarryDataBothWaysWithinFlowControl() throws IOException
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestServer server = TestBinding.server("net");

        final TestStream stream = client.open();
        final byte[] payload = new byte[300_000];
        new Random(7).nextBytes(payload);
        client.write(stream, payload);
        client.end(stream);

        final TestStream accepted = awaitStream(server, 0);
        accepted.await(TIMEOUT, accepted::ended);
        assertArrayEquals(payload, accepted.received());
        stream.await(TIMEOUT, () -> stream.frames().contains("BEGIN 0x" + Long.toHexString(stream.id() & ~1L)));

        final Map<String, Map<String, Long>> counters = EngineCounters.read(engine.directory());
        assertEquals(300_000L, counters.get("net").get("bytes.received"));
        assertEquals(300_000L, counters.get("app").get("bytes.sent"));
        assertEquals(1L, counters.get("net").get("streams.opened"));
    }

    @Test
    void shouldOpenStreamsOnTheWorkerOfTheClientTheTestPicks()
    {
        // bindings attach on every worker; a test of several workers opens streams from each worker's client
        engine.workers(2).start(config());

        for (int worker = 0; worker < 2; worker++)
        {
            final TestClient client = TestBinding.client("app", worker);
            final TestStream stream = client.open();
            client.write(stream, ("on worker " + worker).getBytes(StandardCharsets.UTF_8));

            final TestStream accepted = awaitStream(TestBinding.server("net", worker), 0);
            accepted.await(TIMEOUT, () -> accepted.received().length == 11);
            assertArrayEquals(("on worker " + worker).getBytes(StandardCharsets.UTF_8), accepted.received());
            assertEquals(worker, StreamIds.workerIndex(stream.id()), "the stream id carries its worker");
        }
        assertEquals(1, TestBinding.server("net", 1).streams().size());
    }

    @Test
    void shouldResetStreamToUnknownBindingAndKeepWorking()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");

        final TestStream first = client.open();
        client.write(first, "one".getBytes(StandardCharsets.UTF_8));
        final TestStream accepted = awaitStream(TestBinding.server("net"), 0);
        accepted.await(TIMEOUT, () -> accepted.received().length == 3);
        assertFalse(first.reset());
    }

    @Test
    void shouldNotDeliverLateFramesOfAForgottenStreamToTheStreamThatReusesItsPair()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestServer server = TestBinding.server("net");

        final TestStream first = client.open();
        client.write(first, "one".getBytes(StandardCharsets.UTF_8));
        final TestStream firstAccepted = awaitStream(server, 0);
        firstAccepted.await(TIMEOUT, () -> firstAccepted.received().length == 3);
        client.end(first);
        firstAccepted.await(TIMEOUT, firstAccepted::ended);
        // the server's reply ends too (its steps run on the worker as the client's do): the stream is forgotten
        client.end(firstAccepted);
        first.await(TIMEOUT, first::ended);
        final int firstFrames = firstAccepted.frames().size();

        final TestStream second = client.open();
        final TestStream secondAccepted = awaitStream(server, 1);
        // late frames of the first stream, after both its directions ended: nobody may get them, least of all
        // the second stream, which took the first's place in the engine
        client.abort(first);
        client.reset(first);
        client.write(second, "two".getBytes(StandardCharsets.UTF_8));
        client.end(second);

        secondAccepted.await(TIMEOUT, secondAccepted::ended);
        assertArrayEquals("two".getBytes(StandardCharsets.UTF_8), secondAccepted.received());
        assertFalse(secondAccepted.aborted());
        assertFalse(secondAccepted.reset());
        assertFalse(second.reset());
        assertEquals(firstFrames, firstAccepted.frames().size());
    }

    private static TestStream awaitStream(TestServer server, int index)
    {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (server.streams().size() <= index)
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no stream " + index + " accepted");
            }
            Thread.onSpinWait();
        }
        return server.streams().get(index);
    }

    private static NamespaceConfig config()
    {
        final RouteConfig toServer = new RouteConfig(0, List.of(), null, "net", SERVER_ID, Map.of());
        final BindingConfig app = new BindingConfig(CLIENT_ID, "app", "test", KindConfig.CLIENT, null, null, List.of(toServer));
        final BindingConfig net = new BindingConfig(SERVER_ID, "net", "test", KindConfig.SERVER, null, null, List.of());
        return new NamespaceConfig("test", List.of(app, net), List.of(), List.of(), TelemetryConfig.EMPTY);
    }
}
