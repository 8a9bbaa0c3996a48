/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp.stream;

import static io.zilla.bindings.tcp.stream.TcpTestConfigs.LOOPBACK;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.binding;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.cidr;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.echo;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.freePort;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.namespace;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.route;
import static io.zilla.bindings.tcp.stream.TcpTestConfigs.serverOptions;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.tcp.config.TcpConditionConfig;
import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** tcp server to the echo binding, driven by real sockets. */
class TcpServerTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldEchoOnEveryConnection(int workers) throws Exception
    {
        final int port = freePort();
        engine.workers(workers).start(echo(port));

        // enough connections that, with SO_REUSEPORT, both workers accept some
        for (int i = 0; i < 16; i++)
        {
            try (Socket socket = connect(port))
            {
                final byte[] message = ("hello " + i).getBytes(StandardCharsets.UTF_8);
                socket.getOutputStream().write(message);
                assertArrayEquals(message, socket.getInputStream().readNBytes(message.length));
            }
        }
        awaitCounter("net", "connections.active", 0L);
        assertEquals(16L, counter("net", "connections.opened"));
    }

    @ParameterizedTest(name = "backlog {0}")
    @ValueSource(ints = {0, 7})
    void shouldListenWithTheBacklogAskedForOrTheSystemMaximum(int backlog) throws Exception
    {
        final int port = freePort();
        final TcpOptionsConfig options = new TcpOptionsConfig(LOOPBACK, new int[] {port}, backlog, true, false, 0L);
        engine.workers(1).start(namespace(
            binding(0, "net", "tcp", KindConfig.SERVER, options, route(0, "app", 1)),
            binding(1, "app", "echo", KindConfig.SERVER, null)));

        // ss shows a listening socket's accept queue limit as its Send-Q; the kernel caps what was asked at somaxconn
        final int somaxconn;
        try (InputStream in = java.nio.file.Files.newInputStream(java.nio.file.Path.of("/proc/sys/net/core/somaxconn")))
        {
            // read to the end: procfs files report a size of 0, which sized reads trust
            somaxconn = Integer.parseInt(new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim());
        }
        final Process ss = new ProcessBuilder("ss", "-Hltn", "sport = :" + port).redirectErrorStream(true).start();
        final String line = new String(ss.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).trim();
        assertTrue(ss.waitFor(10, TimeUnit.SECONDS));
        final String[] fields = line.split("\\s+");
        assertEquals("LISTEN", fields[0], line);
        assertEquals(backlog > 0 ? Math.min(backlog, somaxconn) : somaxconn, Integer.parseInt(fields[2]), line);
    }

    @Test
    void shouldEchoAsZillaYamlSays() throws Exception
    {
        final int port = freePort();
        engine.anchor(TcpServerTest.class).env("PORT", String.valueOf(port)).workers(2).start("server.echo.yaml");

        try (Socket socket = connect(port))
        {
            socket.getOutputStream().write("ping".getBytes(StandardCharsets.UTF_8));
            assertEquals("ping", new String(socket.getInputStream().readNBytes(4), StandardCharsets.UTF_8));
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldEchoThousandConcurrentConnectionsOfOneMebibyte(int workers) throws Exception
    {
        final int port = freePort();
        // The test engine's 1 MiB ring is far smaller than 1,000 windows of 64 KiB: the worker stops reading sockets
        // while its ring is half full, so nothing is aborted. A slot per connection whose peer reads slower than it
        // writes: 1,024 slots per worker.
        engine.workers(workers)
            .property(EngineConfiguration.BUFFER_SLOTS, 1024)
            .start(echo(port));

        final String summary;
        try
        {
            summary = EchoLoad.run(new InetSocketAddress(LOOPBACK, port), 1_000, 1 << 20, 42L + workers, 50_000L);
        }
        catch (AssertionError ex)
        {
            throw new AssertionError(ex.getMessage() + "; events: " + engine.events(), ex);
        }
        System.out.println("TcpServerTest: " + workers + " workers: " + summary);

        awaitCounter("net", "connections.active", 0L);
        assertEquals(1_000L, counter("net", "connections.opened"));
        assertEquals(1_000L << 20, counter("net", "bytes.read"));
        assertEquals(1_000L << 20, counter("net", "bytes.written"));
        // at least one read and one write per connection; never more than one per byte
        final long reads = counter("net", "socket.reads");
        final long writes = counter("net", "socket.writes");
        assertTrue(reads >= 1_000L && reads <= 1_000L << 20, "socket.reads " + reads);
        assertTrue(writes >= 1_000L && writes <= 1_000L << 20, "socket.writes " + writes);
    }

    @Test
    void shouldEchoEverythingAfterHalfClose() throws Exception
    {
        final int port = freePort();
        engine.start(echo(port));

        final byte[] sent = new byte[3 << 20];
        new SplittableRandom(7L).nextBytes(sent);
        try (Socket socket = connect(port))
        {
            final InputStream in = socket.getInputStream();
            final CompletableFuture<byte[]> echoed = CompletableFuture.supplyAsync(() -> readAll(in));
            final OutputStream out = socket.getOutputStream();
            out.write(sent);
            socket.shutdownOutput();

            // every byte comes back, then end of stream: the echo ended its side after ours
            assertArrayEquals(sent, echoed.get(20, TimeUnit.SECONDS));
        }
        awaitCounter("net", "connections.active", 0L);
    }

    @Test
    void shouldHoldBackWhileThePeerDoesNotRead() throws Exception
    {
        final int port = freePort();
        engine.start(echo(port));

        final byte[] sent = new byte[16 << 20];
        new SplittableRandom(11L).nextBytes(sent);
        try (Socket socket = new Socket())
        {
            // small buffers on our side, so that what the kernel holds does not hide what the engine holds
            socket.setReceiveBufferSize(64 * 1024);
            socket.setSendBufferSize(64 * 1024);
            socket.setSoTimeout(20_000);
            socket.connect(new InetSocketAddress(LOOPBACK, port));

            // nobody reads yet: the echo's replies back up into the socket, then into the connection's slot; then
            // credit runs out, the server stops reading, and at last the kernel's buffers fill and the write blocks
            final OutputStream out = socket.getOutputStream();
            final CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> writeAll(out, sent));
            awaitSteady("net", "bytes.read");
            assertFalse(writing.isDone(), "16 MiB cannot all be taken while nothing is read");

            // what the engine holds is bounded by credit: the echo's window and the unwritten slot, 64 KiB each
            final long held = counter("net", "bytes.read") - counter("net", "bytes.written");
            assertTrue(held <= 2 * 64 * 1024, "held " + held + " bytes");

            final byte[] echoed = socket.getInputStream().readNBytes(sent.length);
            writing.get(20, TimeUnit.SECONDS);
            assertArrayEquals(sent, echoed);
        }
    }

    @Test
    void shouldListenOnEveryPortOfAList() throws Exception
    {
        final int first = freePort();
        final int second = freePort();
        engine.workers(2).start(echo(first, second));

        for (int port : new int[] {first, second})
        {
            try (Socket socket = connect(port))
            {
                socket.getOutputStream().write(new byte[] {1, 2, 3});
                assertArrayEquals(new byte[] {1, 2, 3}, socket.getInputStream().readNBytes(3));
            }
        }
    }

    @Test
    void shouldRefuseConnectionWithoutRoute() throws Exception
    {
        final int port = freePort();
        engine.start(namespace(
            binding(0, "net", "tcp", KindConfig.SERVER, serverOptions(port), route(0, "app", 1, cidr("10.0.0.0/8"))),
            binding(1, "app", "echo", KindConfig.SERVER, null)));

        try (Socket socket = connect(port))
        {
            assertEquals(-1, readOrEnd(socket));
        }
        final EngineEvent event = awaitEvent("tcp.connection.refused");
        assertTrue(event.detail().contains("no route"), event.detail());
        assertEquals(1L, counter("net", "connections.refused"));
    }

    @Test
    void shouldRouteByPort() throws Exception
    {
        final int open = freePort();
        final int closed = freePort();
        engine.start(namespace(
            binding(0, "net", "tcp", KindConfig.SERVER, serverOptions(open, closed),
                route(0, "app", 1, new TcpConditionConfig(null, null, new int[] {open}))),
            binding(1, "app", "echo", KindConfig.SERVER, null)));

        try (Socket socket = connect(open))
        {
            socket.getOutputStream().write(9);
            assertEquals(9, socket.getInputStream().read());
        }
        try (Socket socket = connect(closed))
        {
            assertEquals(-1, readOrEnd(socket));
        }
    }

    @Test
    void shouldFailToStartWhenThePortIsTaken() throws Exception
    {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(LOOPBACK)))
        {
            final IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> engine.start(echo(taken.getLocalPort())));
            assertTrue(failure.getMessage().contains("port " + taken.getLocalPort() + " is in use"), failure.getMessage());
        }
    }

    @ParameterizedTest(name = "{0} workers")
    @ValueSource(ints = {1, 2})
    void shouldFailToStartWhenAnotherProgramListensThereWithReusePort(int workers) throws Exception
    {
        // SO_REUSEPORT lets any socket of the same user that also sets it join the port: without a check, zilla would
        // start and the kernel would split the connections between zilla and the other program
        try (ServerSocketChannel taken = ServerSocketChannel.open())
        {
            taken.setOption(StandardSocketOptions.SO_REUSEPORT, true);
            taken.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            taken.bind(new InetSocketAddress(LOOPBACK, 0));
            final int port = ((InetSocketAddress) taken.getLocalAddress()).getPort();

            final IllegalStateException failure = assertThrows(IllegalStateException.class,
                () -> engine.workers(workers).start(echo(port)));
            assertTrue(failure.getMessage().contains("bindings.net: port " + port + " is in use"), failure.getMessage());
        }
    }

    @Test
    void shouldFailToStartWhenTheHostCannotBeResolvedAndReleaseThePortsBefore() throws Exception
    {
        // the first port was listened on before the second failed: it must be closed again, and released
        final int port = freePort();
        final TcpOptionsConfig first = new TcpOptionsConfig(LOOPBACK, new int[] {port}, 0, true, false, 0L);
        final TcpOptionsConfig unresolved = new TcpOptionsConfig("no-such-host.invalid", new int[] {freePort()}, 0, true,
            false, 0L);
        final IllegalStateException failure = assertThrows(IllegalStateException.class, () -> engine.start(namespace(
            binding(0, "net", "tcp", KindConfig.SERVER, first, route(0, "app", 2)),
            binding(1, "net2", "tcp", KindConfig.SERVER, unresolved, route(0, "app", 2)),
            binding(2, "app", "echo", KindConfig.SERVER, null))));
        assertTrue(failure.getMessage().contains("bindings.net2: cannot listen on") && failure.getMessage()
            .contains("cannot resolve host no-such-host.invalid"), failure.getMessage());

        try (ServerSocket again = new ServerSocket())
        {
            again.setReuseAddress(true);
            again.bind(new InetSocketAddress(LOOPBACK, port));
        }
    }

    @Test
    void shouldFailToStartWhenAnotherEngineListensOnThePort(@TempDir Path otherDirectory) throws Exception
    {
        final int port = freePort();
        engine.workers(2).start(echo(port));
        try (Engine other = Engine.builder()
            .configuration(new EngineConfiguration().with(EngineConfiguration.DIRECTORY, otherDirectory)
                .with(EngineConfiguration.WORKERS, 1))
            .config(echo(port))
            .build())
        {
            final IllegalStateException failure = assertThrows(IllegalStateException.class, other::start);
            assertTrue(failure.getMessage().contains("port " + port + " is in use"), failure.getMessage());
        }

        // the first engine keeps every connection
        for (int i = 0; i < 8; i++)
        {
            try (Socket socket = connect(port))
            {
                socket.getOutputStream().write(i);
                assertEquals(i, socket.getInputStream().read());
            }
        }
    }

    @Test
    void shouldAbortTheStreamWhenThePeerResets() throws Exception
    {
        final int port = freePort();
        engine.start(echo(port));

        try (Socket socket = connect(port))
        {
            socket.getOutputStream().write(new byte[] {1});
            assertEquals(1, socket.getInputStream().read());
            // RST instead of FIN
            socket.setSoLinger(true, 0);
        }
        awaitCounter("net", "connections.active", 0L);

        // the engine goes on serving others
        try (Socket socket = connect(port))
        {
            socket.getOutputStream().write(new byte[] {2});
            assertEquals(2, socket.getInputStream().read());
        }
    }

    static Socket connect(int port) throws IOException
    {
        final Socket socket = new Socket(LOOPBACK, port);
        socket.setSoTimeout(20_000);
        return socket;
    }

    /** Reads a byte, treating a reset like the end of stream: a refused connection may be closed either way. */
    static int readOrEnd(Socket socket) throws IOException
    {
        try
        {
            return socket.getInputStream().read();
        }
        catch (SocketException ex)
        {
            return -1;
        }
    }

    static byte[] readAll(InputStream in)
    {
        try
        {
            return in.readAllBytes();
        }
        catch (IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    static void writeAll(OutputStream out, byte[] bytes)
    {
        try
        {
            out.write(bytes);
        }
        catch (IOException ex)
        {
            throw new AssertionError(ex);
        }
    }

    private long counter(String binding, String name) throws IOException
    {
        final Map<String, Long> counters = EngineCounters.read(engine.directory()).get(binding);
        return counters != null ? counters.getOrDefault(name, 0L) : 0L;
    }

    private void awaitCounter(String binding, String name, long expected) throws Exception
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long value = counter(binding, name);
        while (value != expected && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            value = counter(binding, name);
        }
        assertEquals(expected, value, binding + ":" + name);
    }

    /** Waits until a counter stops moving for a while. */
    private void awaitSteady(String binding, String name) throws Exception
    {
        long value = counter(binding, name);
        for (int steady = 0; steady < 20; )
        {
            Thread.sleep(25);
            final long next = counter(binding, name);
            steady = next == value ? steady + 1 : 0;
            value = next;
        }
    }

    private EngineEvent awaitEvent(String name) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
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
