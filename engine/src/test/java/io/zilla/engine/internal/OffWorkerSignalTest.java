/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.TelemetryConfig;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** EngineContext.signalNowFromAnyThread: signals sent from other threads all reach the stream, on the worker. */
class OffWorkerSignalTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final long CLIENT_ID = 1L << 32 | 1;
    private static final long SERVER_ID = 1L << 32 | 2;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().binding(new OffWorkerSignalBinding());

    @Test
    void shouldDeliverEverySignalFromOtherThreadsOnTheWorker()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");

        final TestStream first = client.open();
        final TestStream second = client.open();

        // the binding ends a reply once it had all its signals, each on the worker's thread (else it never ends)
        first.await(TIMEOUT, first::ended);
        second.await(TIMEOUT, second::ended);
        assertFalse(first.aborted());
        assertFalse(second.aborted());
    }

    private static NamespaceConfig config()
    {
        final RouteConfig toServer = new RouteConfig(0, List.of(), null, "server", SERVER_ID, Map.of());
        final BindingConfig app = new BindingConfig(CLIENT_ID, "app", "test", KindConfig.CLIENT, null, null, List.of(toServer));
        final BindingConfig server = new BindingConfig(SERVER_ID, "server", OffWorkerSignalBinding.TYPE, KindConfig.SERVER,
            null, null, List.of());
        return new NamespaceConfig("test", List.of(app, server), List.of(), List.of(), TelemetryConfig.EMPTY);
    }
}
