/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
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
import io.zilla.engine.test.TestStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A graph that loops at run time makes one connection open streams without end: the engine refuses the streams past
 * zilla.engine.streams.per.connection, counts and reports it, and only that connection's chain ends.
 */
class StreamsPerConnectionTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long CLIENT_ID = 1L << 32 | 1;
    private static final long LOOPING_ID = 1L << 32 | 2;
    private static final int LIMIT = 50;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension()
        .binding(new LoopingBinding())
        .property(EngineConfiguration.STREAMS_PER_CONNECTION, LIMIT);

    @Test
    void shouldRefuseTheStreamsOfALoopPastTheLimit() throws IOException, InterruptedException
    {
        engine.start(config());

        final TestStream first = TestBinding.client("app").open();
        first.await(TIMEOUT, first::reset);

        // the app's stream and 49 laps were opened; the 50th lap was refused and the resets ran back to the app. The
        // looping binding counts each lap twice, as the stream's opener and as its acceptor, and the app's once
        final long laps = LIMIT - 1;
        final Map<String, Long> looping = EngineCounters.read(engine.directory()).get(LoopingBinding.TYPE);
        assertEquals(laps + LIMIT, looping.get("streams.opened"));
        assertEquals(1L, looping.get("streams.refused"));
        awaitCounter(LoopingBinding.TYPE, "streams.closed", laps + LIMIT);
        final EngineEvent capped = awaitCapped(1).get(0);
        assertEquals(LoopingBinding.TYPE, capped.binding());
        assertTrue(capped.detail().contains(LIMIT + " streams open"), capped.detail());

        // a count per connection: the next connection has the whole limit again
        final TestStream second = TestBinding.client("app").open();
        second.await(TIMEOUT, second::reset);
        awaitCounter(LoopingBinding.TYPE, "streams.refused", 2L);
        assertEquals(2 * (laps + LIMIT), EngineCounters.read(engine.directory()).get(LoopingBinding.TYPE).get("streams.opened"));
        awaitCapped(2);
    }

    private List<EngineEvent> awaitCapped(int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        List<EngineEvent> capped;
        while ((capped = engine.events().stream().filter(event -> event.event().equals("engine.streams.capped")).toList())
            .size() < count)
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError("not " + count + " engine.streams.capped in " + engine.events());
            }
            Thread.sleep(10);
        }
        return capped;
    }

    private void awaitCounter(String binding, String counter, long expected) throws IOException, InterruptedException
    {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        long value;
        while ((value = EngineCounters.read(engine.directory()).get(binding).getOrDefault(counter, 0L)) != expected)
        {
            if (System.nanoTime() > deadline)
            {
                throw new AssertionError(binding + " " + counter + " is " + value + ", not " + expected);
            }
            Thread.sleep(10);
        }
    }

    private static NamespaceConfig config()
    {
        final RouteConfig toLooping = new RouteConfig(0, List.of(), null, "looping", LOOPING_ID, Map.of());
        final BindingConfig app = new BindingConfig(CLIENT_ID, "app", "test", KindConfig.CLIENT, null, null, List.of(toLooping));
        final BindingConfig looping = new BindingConfig(LOOPING_ID, "looping", LoopingBinding.TYPE, KindConfig.PROXY, null, null,
            List.of());
        return new NamespaceConfig("test", List.of(app, looping), List.of(), List.of(), TelemetryConfig.EMPTY);
    }
}
