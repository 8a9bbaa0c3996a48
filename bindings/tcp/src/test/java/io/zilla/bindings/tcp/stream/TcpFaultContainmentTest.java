/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static io.zilla.bindings.tcp.stream.TcpTestConfigs.LOOPBACK;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.binding;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.freePort;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.namespace;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.route;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.serverOptions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.EngineCounters;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A binding that throws on one connection's bytes ends that connection only; the others keep echoing. */
class TcpFaultContainmentTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().binding(new FragileEchoBinding());

    @Test
    void shouldCloseOnlyTheConnectionWhoseStreamFailed() throws Exception
    {
        final int port = freePort();
        engine.start(namespace(
            binding(0, "net", "tcp", KindConfig.SERVER, serverOptions(port), route(0, "app", 1)),
            binding(1, "app", FragileEchoBinding.TYPE, KindConfig.SERVER, null)));

        final List<Socket> healthy = new ArrayList<>();
        try (Socket failing = connect(port))
        {
            for (int i = 0; i < 8; i++)
            {
                healthy.add(connect(port));
            }
            for (int round = 0; round < 3; round++)
            {
                echoOnEach(healthy, "before " + round);
            }

            failing.getOutputStream().write("boom".getBytes(StandardCharsets.US_ASCII));
            assertTrue(closedByPeer(failing.getInputStream()), "the failing connection is closed");

            for (int round = 0; round < 3; round++)
            {
                echoOnEach(healthy, "after " + round);
            }
        }
        finally
        {
            for (Socket socket : healthy)
            {
                socket.close();
            }
        }
        assertEquals(1L, EngineCounters.read(engine.directory()).get("app").get("faults"));
    }

    private static void echoOnEach(List<Socket> sockets, String text) throws IOException
    {
        final byte[] message = text.getBytes(StandardCharsets.US_ASCII);
        for (Socket socket : sockets)
        {
            socket.getOutputStream().write(message);
            assertArrayEquals(message, socket.getInputStream().readNBytes(message.length));
        }
    }

    private static boolean closedByPeer(InputStream in) throws IOException
    {
        try
        {
            return in.read() == -1;
        }
        catch (SocketException ex)
        {
            // reset rather than closed: an abort reaches the socket as an RST
            return true;
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
