/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A binding that throws, or floods the ring, ends only its own stream; the worker and other streams go on. */
class FaultContainmentTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long CLIENT_ID = 1L << 32 | 1;
    private static final long FAULTY_ID = 1L << 32 | 2;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension()
        .binding(new FaultyBinding())
        .property(EngineConfiguration.RING_CAPACITY, 64 * 1024);

    @Test
    void shouldEndOnlyTheStreamWhoseBindingThrew() throws IOException
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestStream healthy = client.open();
        final TestStream failing = client.open();
        healthy.await(TIMEOUT, () -> healthy.frames().contains("WINDOW 0x" + Long.toHexString(healthy.id())));
        failing.await(TIMEOUT, () -> failing.frames().contains("WINDOW 0x" + Long.toHexString(failing.id())));

        client.write(failing, bytes("boom"));
        failing.await(TIMEOUT, () -> failing.reset() && failing.aborted());

        client.write(healthy, bytes("still there"));
        client.write(healthy, bytes("and again"));
        healthy.await(TIMEOUT, () -> healthy.frames().stream().filter(f -> f.startsWith("WINDOW")).count() >= 3);
        assertFalse(healthy.reset());
        assertFalse(healthy.aborted());

        assertEquals(1L, EngineCounters.read(engine.directory()).get("faulty").get("faults"));
        awaitEvent("engine.stream.failed");
        final EngineEvent event = engine.events().stream().filter(e -> e.event().equals("engine.stream.failed")).findFirst()
            .orElseThrow();
        assertEquals("faulty", event.binding());
        assertTrue(event.detail().contains("boom on purpose"), event.detail());
    }

    @Test
    void shouldAbortTheStreamThatFillsTheRing() throws IOException
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestStream healthy = client.open();
        final TestStream flooding = client.open();
        flooding.await(TIMEOUT, () -> flooding.frames().contains("WINDOW 0x" + Long.toHexString(flooding.id())));

        client.write(flooding, bytes("flood"));
        flooding.await(TIMEOUT, () -> flooding.reset() && flooding.aborted());

        client.write(healthy, bytes("fine"));
        healthy.await(TIMEOUT, () -> healthy.frames().stream().filter(f -> f.startsWith("WINDOW")).count() >= 2);
        assertFalse(healthy.reset());

        final Map<String, Long> counters = EngineCounters.read(engine.directory()).get("faulty");
        assertEquals(1L, counters.get("ring.full"));
        awaitEvent("engine.ring.full");
    }

    private void awaitEvent(String name)
    {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (engine.events().stream().noneMatch(e -> e.event().equals(name)))
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("no event " + name + " in " + engine.events());
            }
            Thread.onSpinWait();
        }
    }

    private static byte[] bytes(String text)
    {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static NamespaceConfig config()
    {
        final RouteConfig toFaulty = new RouteConfig(0, List.of(), null, "faulty", FAULTY_ID, Map.of());
        final BindingConfig app = new BindingConfig(CLIENT_ID, "app", "test", KindConfig.CLIENT, null, null, List.of(toFaulty));
        final BindingConfig faulty = new BindingConfig(FAULTY_ID, "faulty", FaultyBinding.TYPE, KindConfig.SERVER, null, null,
            List.of());
        return new NamespaceConfig("test", List.of(app, faulty), List.of(), List.of(), TelemetryConfig.EMPTY);
    }
}
