/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zilla.engine.EngineCounters;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestServer;
import io.zilla.engine.test.TestStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The stream.* metrics the dispatcher counts: exact values for a known exchange, and only what is selected. */
class StreamMetricsTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long CLIENT_ID = 1L << 32 | 1;
    private static final long SERVER_ID = 1L << 32 | 2;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldCountAnAbortedStreamOnBothSides() throws IOException
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestServer server = TestBinding.server("net");

        final TestStream stream = client.open();
        client.write(stream, "abc".getBytes(StandardCharsets.UTF_8));
        final TestStream accepted = awaitStream(server);
        accepted.await(TIMEOUT, () -> accepted.received().length == 3);
        stream.await(TIMEOUT, () -> stream.frames().contains("BEGIN 0x" + Long.toHexString(stream.id() & ~1L)));

        final Map<String, Long> open = EngineCounters.read(engine.directory()).get("app");
        assertEquals(1L, open.get("stream.active.sent"), open::toString);
        assertEquals(1L, open.get("stream.active.received"), open::toString);

        client.abort(stream);
        accepted.await(TIMEOUT, accepted::aborted);
        client.end(accepted);
        stream.await(TIMEOUT, stream::ended);

        final Map<String, Map<String, Long>> counters = EngineCounters.read(engine.directory());
        final Map<String, Long> app = counters.get("app");
        assertEquals(1L, app.get("stream.opens.sent"), app::toString);
        assertEquals(1L, app.get("stream.opens.received"), app::toString);
        assertEquals(3L, app.get("stream.data.sent"), app::toString);
        assertEquals(0L, app.get("stream.data.received"), app::toString);
        assertEquals(1L, app.get("stream.errors.sent"), app::toString);
        assertEquals(0L, app.get("stream.errors.received"), app::toString);
        assertEquals(0L, app.get("stream.closes.sent"), app::toString);
        assertEquals(1L, app.get("stream.closes.received"), app::toString);
        assertEquals(0L, app.get("stream.active.sent"), app::toString);
        assertEquals(0L, app.get("stream.active.received"), app::toString);

        // net selects only stream.errors.*: the other metrics have no counter at all
        final Map<String, Long> net = counters.get("net");
        assertEquals(1L, net.get("stream.errors.received"), net::toString);
        assertEquals(0L, net.get("stream.errors.sent"), net::toString);
        assertNull(net.get("stream.opens.received"), net::toString);
        assertFalse(net.keySet().stream().anyMatch(name -> name.startsWith("stream.") && !name.startsWith("stream.errors.")),
            net::toString);
    }

    private static TestStream awaitStream(TestServer server)
    {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (server.streams().isEmpty())
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no stream accepted");
            }
            Thread.onSpinWait();
        }
        return server.streams().get(0);
    }

    private static NamespaceConfig config()
    {
        final RouteConfig toServer = new RouteConfig(0, List.of(), null, "net", SERVER_ID, Map.of());
        final BindingConfig app = new BindingConfig(CLIENT_ID, "app", "test", KindConfig.CLIENT, null, null, List.of(toServer),
            Set.copyOf(TelemetryConfig.METRICS));
        final BindingConfig net = new BindingConfig(SERVER_ID, "net", "test", KindConfig.SERVER, null, null, List.of(),
            Set.of("stream.errors.received", "stream.errors.sent"));
        return new NamespaceConfig("test", List.of(app, net), List.of(), List.of(), TelemetryConfig.EMPTY);
    }
}
