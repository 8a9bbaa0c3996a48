/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;

import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A worker that blocks in select as soon as it is idle still delivers a signal queued from another thread at once:
 * the pass that runs the queued task does not block before it drains the frame the task wrote. The signal comes a
 * fifth of a second after the stream opened, when the worker is blocked, and the park limit is a minute, longer
 * than the test waits, so a signal left behind a blocking poll fails it.
 */
class ParkedWorkerSignalTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension()
        .property(EngineConfiguration.IDLE_PARK_MAX_MILLIS, 60_000)
        .binding(new OffWorkerSignalBinding(1, 200L));

    @Test
    void shouldDeliverASignalFromAnotherThreadToAParkedWorker()
    {
        engine.start(OffWorkerSignalBinding.namespace());
        final TestClient client = TestBinding.client("app");

        final TestStream stream = client.open();

        // the binding ends the reply once the signal reached it on the worker
        stream.await(TIMEOUT, stream::ended);
        assertTrue(stream.ended());
        assertFalse(stream.aborted());
    }
}
