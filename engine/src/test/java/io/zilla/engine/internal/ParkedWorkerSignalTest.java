/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;

import io.zilla.engine.EngineConfiguration;
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

/**
 * A worker that blocks in select as soon as it is idle still delivers a signal queued from another thread at once:
 * the pass that runs the queued task does not block before it drains the frame the task wrote. The park limit is
 * a minute here, longer than the test waits, so a signal left behind a blocking poll fails it.
 */
class ParkedWorkerSignalTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);
    private static final long CLIENT_ID = 1L << 32 | 1;
    private static final long SERVER_ID = 1L << 32 | 2;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension()
        .property(EngineConfiguration.IDLE_PARK_MAX_MILLIS, 60_000)
        .binding(new OffWorkerSignalBinding());

    @Test
    void shouldDeliverSignalsFromOtherThreadsToAParkedWorker()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");

        final TestStream stream = client.open();

        // the binding ends the reply once every signal reached it on the worker
        stream.await(TIMEOUT, stream::ended);
        assertTrue(stream.ended());
        assertFalse(stream.aborted());
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
