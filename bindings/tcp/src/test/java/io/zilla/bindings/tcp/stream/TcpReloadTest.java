/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static io.zilla.bindings.tcp.stream.TcpTestConfigs.LOOPBACK;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.freePort;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A watched zilla.yaml: a valid change is applied while the engine runs, an invalid one is rejected with its errors. */
class TcpReloadTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @TempDir
    Path directory;

    @Test
    void shouldApplyAValidChangeAndRejectAnInvalidOne() throws Exception
    {
        final int first = freePort();
        final int second = freePort();
        final Path file = directory.resolve("zilla.yaml");
        Files.writeString(file, yaml(String.valueOf(first)));
        engine.startWatching(file);
        assertEchoes(first);

        Files.writeString(file, yaml(String.valueOf(second)));
        final EngineEvent reloaded = awaitEvent("engine.config.reloaded");
        assertTrue(reloaded.detail().contains("2 bindings"), reloaded.detail());
        assertEchoes(second);
        assertThrows(ConnectException.class, () -> connect(first).close());

        Files.writeString(file, yaml("\"not a port\""));
        final EngineEvent rejected = awaitEvent("engine.config.rejected");
        assertTrue(rejected.detail().contains("zilla.yaml:9:13 bindings.net.options.port: must be an integer, a range"),
            rejected.detail());
        assertEchoes(second);
    }

    private static String yaml(String port)
    {
        return """
            ---
            name: reload
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %s
                exit: app
              app:
                type: echo
                kind: server
            """.formatted(port);
    }

    private EngineEvent awaitEvent(String name) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline)
        {
            for (EngineEvent event : engine.events())
            {
                if (event.event().equals(name))
                {
                    return event;
                }
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no event " + name + " in " + engine.events());
    }

    private static void assertEchoes(int port) throws IOException
    {
        try (Socket socket = connect(port))
        {
            final byte[] message = ("hello " + port).getBytes(StandardCharsets.US_ASCII);
            socket.getOutputStream().write(message);
            assertArrayEquals(message, socket.getInputStream().readNBytes(message.length));
        }
    }

    private static Socket connect(int port) throws IOException
    {
        final Socket socket = new Socket();
        socket.connect(new InetSocketAddress(LOOPBACK, port), 5_000);
        socket.setSoTimeout(10_000);
        return socket;
    }
}
