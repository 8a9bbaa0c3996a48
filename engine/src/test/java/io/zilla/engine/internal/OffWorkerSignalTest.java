/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;

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

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().binding(new OffWorkerSignalBinding());

    @Test
    void shouldDeliverEverySignalFromOtherThreadsOnTheWorker()
    {
        engine.start(OffWorkerSignalBinding.namespace());
        final TestClient client = TestBinding.client("app");

        final TestStream first = client.open();
        final TestStream second = client.open();

        // the binding ends a reply once it had all its signals, each on the worker's thread (else it never ends)
        first.await(TIMEOUT, first::ended);
        second.await(TIMEOUT, second::ended);
        assertFalse(first.aborted());
        assertFalse(second.aborted());
    }
}
