/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static io.zilla.bindings.tcp.stream.TcpTestConfigs.LOOPBACK;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.binding;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.cidr;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.clientOptions;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.freePort;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.namespace;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.route;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.serverOptions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.tcp.TcpBinding;
import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.specs.tcp.types.stream.TcpBeginExFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** tcp client, behind a tcp server (a proxy chain) or opened by the test binding, to plain Java sockets. */
class TcpClientTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldProxyThroughServerAndClient() throws Exception
    {
        try (EchoServerSocket upstream = new EchoServerSocket())
        {
            final int port = freePort();
            engine.workers(2).start(namespace(
                binding(0, "net", "tcp", KindConfig.SERVER, serverOptions(port), route(0, "north", 1)),
                binding(1, "north", "tcp", KindConfig.CLIENT, clientOptions(LOOPBACK, upstream.port(), 0L))));

            for (int i = 0; i < 4; i++)
            {
                final byte[] sent = new byte[1 << 20];
                new SplittableRandom(i).nextBytes(sent);
                try (Socket socket = TcpServerTest.connect(port))
                {
                    final InputStream in = socket.getInputStream();
                    final CompletableFuture<byte[]> echoed = CompletableFuture.supplyAsync(() -> TcpServerTest.readAll(in));
                    socket.getOutputStream().write(sent);
                    // the half-close travels server -> client -> upstream, and the upstream's back again
                    socket.shutdownOutput();
                    assertArrayEquals(sent, echoed.get(20, TimeUnit.SECONDS));
                }
            }
            assertEquals(4, upstream.accepted());
        }
    }

    @Test
    void shouldProxyAsZillaYamlSays() throws Exception
    {
        try (EchoServerSocket upstream = new EchoServerSocket())
        {
            final int port = freePort();
            engine.anchor(TcpClientTest.class)
                .env("PORT", String.valueOf(port))
                .env("UPSTREAM_PORT", String.valueOf(upstream.port()))
                .start("proxy.yaml");

            try (Socket socket = TcpServerTest.connect(port))
            {
                socket.getOutputStream().write(new byte[] {1, 2, 3, 4});
                socket.shutdownOutput();
                assertArrayEquals(new byte[] {1, 2, 3, 4}, socket.getInputStream().readAllBytes());
            }
        }
    }

    @Test
    void shouldConnectToTheDestinationOfTheBeginExtension() throws Exception
    {
        try (EchoServerSocket upstream = new EchoServerSocket())
        {
            engine.start(appToClient(TcpOptionsConfig.DEFAULTS));

            final TestStream stream = TestBinding.client("app").open(beginEx(LOOPBACK, upstream.port()));
            stream.await(TIMEOUT, () -> stream.frames().stream().anyMatch(frame -> frame.startsWith("BEGIN")));
            final byte[] sent = "hello, upstream".getBytes();
            TestBinding.client("app").write(stream, sent);
            TestBinding.client("app").end(stream);

            stream.await(TIMEOUT, stream::ended);
            assertArrayEquals(sent, stream.received());
            assertFalse(stream.reset());
        }
    }

    @Test
    void shouldResolveAHostName() throws Exception
    {
        try (EchoServerSocket upstream = new EchoServerSocket())
        {
            // a name is looked up on a resolver thread, not on the worker
            engine.start(appToClient(clientOptions("localhost", upstream.port(), 0L)));

            final TestStream stream = TestBinding.client("app").open();
            TestBinding.client("app").write(stream, new byte[] {4, 2});
            TestBinding.client("app").end(stream);

            stream.await(TIMEOUT, stream::ended);
            assertArrayEquals(new byte[] {4, 2}, stream.received());
        }
    }

    @Test
    void shouldResetWhenTheConnectionIsRefused() throws Exception
    {
        final int closed = freePort();
        engine.start(appToClient(clientOptions(LOOPBACK, closed, 0L)));

        final TestStream stream = TestBinding.client("app").open();
        stream.await(TIMEOUT, stream::reset);

        final EngineEvent event = awaitEvent("tcp.connect.failed");
        assertEquals("north", event.binding());
        assertTrue(event.detail().contains(LOOPBACK + ":" + closed) && event.detail().contains("refused"), event.detail());
    }

    @Test
    void shouldCloseTheAcceptedConnectionWhenTheProxiedOneIsRefused() throws Exception
    {
        final int closed = freePort();
        final int port = freePort();
        engine.start(namespace(
            binding(0, "net", "tcp", KindConfig.SERVER, serverOptions(port), route(0, "north", 1)),
            binding(1, "north", "tcp", KindConfig.CLIENT, clientOptions(LOOPBACK, closed, 0L))));

        try (Socket socket = TcpServerTest.connect(port))
        {
            assertEquals(-1, TcpServerTest.readOrEnd(socket));
        }
        assertTrue(awaitEvent("tcp.connect.failed").detail().contains("refused"));
    }

    @Test
    void shouldResetWhenTheConnectionTimesOut() throws Exception
    {
        // a listener whose accept queue is full drops new SYNs: a connect there hangs until it times out
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK)))
        {
            final List<Socket> queued = fillAcceptQueue(full.getLocalPort());
            try
            {
                engine.start(appToClient(clientOptions(LOOPBACK, full.getLocalPort(), 200L)));

                final TestStream stream = TestBinding.client("app").open();
                stream.await(TIMEOUT, stream::reset);

                final EngineEvent event = awaitEvent("tcp.connect.failed");
                assertTrue(event.detail().contains("timed out after 200 ms"), event.detail());
            }
            finally
            {
                for (Socket socket : queued)
                {
                    socket.close();
                }
            }
        }
    }

    @Test
    void shouldResetWithoutADestination() throws Exception
    {
        engine.start(appToClient(TcpOptionsConfig.DEFAULTS));

        final TestStream stream = TestBinding.client("app").open();
        stream.await(TIMEOUT, stream::reset);
        assertTrue(awaitEvent("tcp.connect.failed").detail().contains("no destination"));
    }

    @ParameterizedTest(name = "listening on {0}")
    @ValueSource(strings = {LOOPBACK, "0.0.0.0"})
    void shouldRefuseToConnectToItsOwnListener(String host) throws Exception
    {
        // the server routes what it accepts to the client, which the stream asks to connect to the server: without the
        // check every lap makes a new connection, until the process has no file descriptors left
        final int port = freePort();
        engine.start(namespace(
            binding(0, "app", "test", KindConfig.CLIENT, null, route(0, "north", 1)),
            binding(1, "north", "tcp", KindConfig.CLIENT, TcpOptionsConfig.DEFAULTS),
            binding(2, "net", "tcp", KindConfig.SERVER, new TcpOptionsConfig(host, new int[] {port}, 0, true, false, 0L),
                route(0, "north", 1))));

        final TestStream stream = TestBinding.client("app").open(beginEx(LOOPBACK, port));
        stream.await(TIMEOUT, stream::reset);

        final EngineEvent event = awaitEvent("tcp.connect.failed");
        assertTrue(event.detail().contains("this zilla listens there itself"), event.detail());
        assertEquals(0L, EngineCounters.read(engine.directory()).getOrDefault("net", Map.of())
            .getOrDefault("connections.opened", 0L));
    }

    @Test
    void shouldResetWhenNoRouteAllowsTheDestination() throws Exception
    {
        try (EchoServerSocket upstream = new EchoServerSocket())
        {
            engine.start(namespace(
                binding(0, "app", "test", KindConfig.CLIENT, null, route(0, "north", 1)),
                binding(1, "north", "tcp", KindConfig.CLIENT, clientOptions(LOOPBACK, upstream.port(), 0L),
                    route(0, "north", 1, cidr("10.0.0.0/8")))));

            final TestStream stream = TestBinding.client("app").open();
            stream.await(TIMEOUT, stream::reset);
            assertTrue(awaitEvent("tcp.connect.failed").detail().contains("no route"));
            assertEquals(0, upstream.accepted());
        }
    }

    @Test
    void shouldAbortTheReplyWhenTheUpstreamResets() throws Exception
    {
        try (ServerSocket upstream = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK)))
        {
            engine.start(appToClient(clientOptions(LOOPBACK, upstream.getLocalPort(), 0L)));

            final TestStream stream = TestBinding.client("app").open();
            try (Socket accepted = upstream.accept())
            {
                // once the client saw the connection up (a reset before then fails the connect instead)
                stream.await(TIMEOUT, () -> stream.frames().stream().anyMatch(frame -> frame.startsWith("BEGIN")));
                accepted.setSoLinger(true, 0);
            }
            stream.await(TIMEOUT, stream::aborted);
            stream.await(TIMEOUT, stream::reset);
        }
    }

    private static NamespaceConfig appToClient(TcpOptionsConfig options)
    {
        return namespace(
            binding(0, "app", "test", KindConfig.CLIENT, null, route(0, "north", 1)),
            binding(1, "north", "tcp", KindConfig.CLIENT, options));
    }

    private static byte[] beginEx(String host, int port)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final TcpBeginExFW beginEx = new TcpBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(TcpBinding.TYPE_ID)
            .destinationHost(host)
            .destinationPort(port)
            .build();
        final byte[] bytes = new byte[beginEx.sizeof()];
        buffer.getBytes(0, bytes);
        return bytes;
    }

    private static List<Socket> fillAcceptQueue(int port) throws IOException
    {
        final List<Socket> queued = new ArrayList<>();
        for (int i = 0; i < 16; i++)
        {
            final Socket socket = new Socket();
            try
            {
                socket.connect(new InetSocketAddress(LOOPBACK, port), 300);
                queued.add(socket);
            }
            catch (SocketTimeoutException ex)
            {
                socket.close();
                return queued;
            }
        }
        throw new IllegalStateException("the accept queue never filled");
    }

    private EngineEvent awaitEvent(String name) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        while (System.nanoTime() < deadline)
        {
            for (EngineEvent event : engine.events())
            {
                if (event.event().equals(name))
                {
                    return event;
                }
            }
            Thread.sleep(10);
        }
        throw new AssertionError("no event " + name + " in " + engine.events());
    }
}
