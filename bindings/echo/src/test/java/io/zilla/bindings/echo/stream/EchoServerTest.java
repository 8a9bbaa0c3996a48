/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.echo.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;

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

/** The echo server in a real engine, driven by the test binding: every byte comes back, in order, then the end. */
class EchoServerTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long APP_ID = 1L << 32 | 1;
    private static final long ECHO_ID = 1L << 32 | 2;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldEchoEveryByteInRandomChunksThenEnd()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestStream stream = client.open();
        final Random random = new Random(42);
        final byte[] sent = new byte[1024 * 1024];
        random.nextBytes(sent);

        for (int offset = 0; offset < sent.length;)
        {
            final int length = Math.min(1 + random.nextInt(20_000), sent.length - offset);
            client.write(stream, Arrays.copyOfRange(sent, offset, offset + length));
            offset += length;
        }
        client.end(stream);

        stream.await(TIMEOUT, stream::ended);
        assertArrayEquals(sent, stream.received());
        assertFalse(stream.reset());
    }

    @Test
    void shouldAbortReplyWhenInitialAborts()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestStream stream = client.open();
        client.write(stream, new byte[] {1, 2, 3});
        stream.await(TIMEOUT, () -> stream.received().length == 3);

        client.abort(stream);

        stream.await(TIMEOUT, stream::aborted);
    }

    @Test
    void shouldResetInitialWhenReplyResets()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestStream stream = client.open();
        stream.await(TIMEOUT, () -> stream.frames().contains("BEGIN 0x" + Long.toHexString(stream.id() & ~1L)));

        client.reset(stream);

        stream.await(TIMEOUT, stream::reset);
    }

    @Test
    void shouldNotTakeALateResetOfAnEndedStreamForTheNextStream()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestStream first = client.open();
        client.write(first, new byte[] {1, 2, 3});
        first.await(TIMEOUT, () -> first.received().length == 3);

        // the echo ends the first stream's reply and takes the second stream (reusing the first's server) before
        // the first stream's Reset reaches it: the Reset is the first stream's, not the second's
        // (the engine forgets the first stream at its Reset, so the echo's End of its reply reaches nobody)
        final TestStream second = client.endOpenAndReset(first);
        client.write(second, new byte[] {4, 5, 6, 7});
        client.end(second);

        second.await(TIMEOUT, second::ended);
        assertArrayEquals(new byte[] {4, 5, 6, 7}, second.received());
        assertFalse(second.reset());
        assertFalse(second.aborted());
    }

    private static NamespaceConfig config()
    {
        final RouteConfig toEcho = new RouteConfig(0, List.of(), null, "echo", ECHO_ID, Map.of());
        return new NamespaceConfig("echo", List.of(
            new BindingConfig(APP_ID, "app", "test", KindConfig.CLIENT, null, null, List.of(toEcho)),
            new BindingConfig(ECHO_ID, "echo", "echo", KindConfig.SERVER, null, null, List.of())),
            List.of(), List.of(), TelemetryConfig.EMPTY);
    }
}
