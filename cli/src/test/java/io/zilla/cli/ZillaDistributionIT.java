/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

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
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end: the packaged distribution's {@code bin/zilla} runs the tcp.echo example as a child process, as a user
 * would run it. Failsafe runs it after package (target/zilla exists then); {@code mvn verify} includes it.
 */
class ZillaDistributionIT
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Path DISTRIBUTION = Path.of(System.getProperty("zilla.distribution", "target/zilla")).toAbsolutePath();
    private static final Path EXAMPLES = Path.of(System.getProperty("zilla.examples", "../examples")).toAbsolutePath();
    private static final byte[] HELLO = "Hello, world\n".getBytes(StandardCharsets.UTF_8);

    @TempDir
    Path temp;

    private final List<ZillaProcess> processes = new ArrayList<>();

    @AfterEach
    void killLeftovers()
    {
        processes.forEach(ZillaProcess::close);
    }

    @Test
    void shouldEchoShowMetricsAndStopCleanlyOnSigterm() throws Exception
    {
        final int port = freePort();
        final Path config = exampleOnPort(port);
        final Path directory = temp.resolve("engine");

        final ZillaProcess zilla = zilla("start", "-c", config, "-w", 1, "-P", "zilla.engine.directory=" + directory);
        final String started = zilla.awaitOut("started zilla", TIMEOUT);
        assertEquals("started zilla with 1 worker: north_tcp_server, north_echo_server", started);
        assertTrue(EngineLock.isHeld(directory));

        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port))
        {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            socket.getOutputStream().write(HELLO);
            assertArrayEquals(HELLO, readFully(socket.getInputStream(), HELLO.length));
        }

        final ZillaProcess metrics = zilla("metrics", "-d", directory);
        assertEquals(0, metrics.awaitExit(TIMEOUT), metrics.err().toString());
        assertEquals(List.of("binding", "counter", "value"), columns(metrics.out().get(0)));
        final List<String> echoed = List.of("north_echo_server", "bytes.received", String.valueOf(HELLO.length));
        assertTrue(metrics.out().stream().anyMatch(line -> columns(line).equals(echoed)), metrics.out().toString());
        assertTrue(metrics.out().stream().anyMatch(line -> line.startsWith("north_tcp_server ")), metrics.out().toString());

        final List<ProcessHandle> descendants = zilla.process().descendants().toList();
        zilla.sigterm();

        assertEquals(0, zilla.awaitExit(TIMEOUT), zilla.err().toString());
        assertEquals("stopped zilla", zilla.out().get(zilla.out().size() - 1), zilla.out().toString());
        assertEquals(List.of(), zilla.err());
        descendants.forEach(process -> assertFalse(process.isAlive(), "stray process " + process.info()));
        assertFalse(EngineLock.isHeld(directory), "the engine directory's lock is released");
        try (ServerSocket again = new ServerSocket())
        {
            // the listening socket is closed: the port can be bound again at once
            again.setReuseAddress(true);
            again.bind(new InetSocketAddress(port));
        }
    }

    @Test
    void shouldServePrometheusMetrics() throws Exception
    {
        final int port = freePort();
        final int metricsPort = freePort();
        final Path config = temp.resolve("zilla.yaml");
        Files.writeString(config, """
            name: example
            telemetry:
              metrics:
                - stream.*
              exporters:
                prometheus_metric_exporter:
                  type: prometheus
                  options:
                    endpoints:
                      - scheme: http
                        port: %d
                        path: /metrics
            bindings:
              north_tcp_server:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %d
                telemetry:
                  metrics:
                    - stream.*
                exit: north_echo_server
              north_echo_server:
                type: echo
                kind: server
            """.formatted(metricsPort, port));

        final Path directory = temp.resolve("engine");
        final ZillaProcess zilla = zilla("start", "-c", config, "-w", 1, "-P", "zilla.engine.directory=" + directory);
        zilla.awaitOut("started zilla", TIMEOUT);
        assertEquals("metrics: prometheus_metric_exporter http://0.0.0.0:" + metricsPort + "/metrics", zilla.out().get(0));
        assertEchoes(port);

        final HttpClient client = HttpClient.newHttpClient();
        final String series = "stream_data_received_bytes_total{binding=\"north_tcp_server\",namespace=\"example\"} "
            + (double) HELLO.length;
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        String body = "";
        while (!body.contains(series) && System.nanoTime() < deadline)
        {
            body = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
            Thread.sleep(50);
        }
        assertTrue(body.contains(series), body);
        zilla.sigterm();
        assertEquals(0, zilla.awaitExit(TIMEOUT), zilla.err().toString());
    }

    @Test
    void shouldStartAgainInTheSameDirectoryAfterACleanStop() throws Exception
    {
        final int port = freePort();
        final Path config = exampleOnPort(port);
        final Path directory = temp.resolve("engine");
        final ZillaProcess first = zilla("start", "-c", config, "-w", 1, "-P", "zilla.engine.directory=" + directory);
        first.awaitOut("started zilla", TIMEOUT);
        assertEchoes(port);
        first.sigterm();
        assertEquals(0, first.awaitExit(TIMEOUT), first.err().toString());

        // the stopped engine's counters stay readable until the next start
        assertEchoCounted(directory);

        final ZillaProcess second = zilla("start", "-c", config, "-w", 1, "-P", "zilla.engine.directory=" + directory);
        assertEquals("started zilla with 1 worker: north_tcp_server, north_echo_server",
            second.awaitOut("started zilla", TIMEOUT), second.err().toString());
        assertEquals(List.of(), second.err());
        assertEchoes(port);
        second.sigterm();
        assertEquals(0, second.awaitExit(TIMEOUT), second.err().toString());
    }

    @Test
    void shouldStartAgainInTheSameDirectoryAfterKill9() throws Exception
    {
        final int port = freePort();
        final Path config = exampleOnPort(port);
        final Path directory = temp.resolve("engine");
        final ZillaProcess killed = zilla("start", "-c", config, "-w", 2, "-P", "zilla.engine.directory=" + directory);
        killed.awaitOut("started zilla", TIMEOUT);
        assertEchoes(port);
        killed.process().destroyForcibly();
        killed.awaitExit(TIMEOUT);
        assertTrue(Files.exists(directory.resolve("ready")), "a killed engine cannot remove its ready file");

        assertEchoCounted(directory);

        // fewer workers this time: the killed engine's second counters file must not be summed into the new engine's
        final ZillaProcess second = zilla("start", "-c", config, "-w", 1, "-P", "zilla.engine.directory=" + directory);
        second.awaitOut("started zilla", TIMEOUT);
        assertEquals(List.of(), second.err());
        assertEquals(String.valueOf(second.process().pid()), Files.readString(directory.resolve("ready")).strip(),
            "the ready file is the new engine's");
        assertFalse(Files.exists(directory.resolve("counters1")), "the killed engine's files are gone");
        assertEchoes(port);
        // one echo's bytes, not two: the new engine counts from zero
        assertEchoCounted(directory);
        second.sigterm();
        assertEquals(0, second.awaitExit(TIMEOUT), second.err().toString());
    }

    @Test
    void shouldRunAsZillaImagesDoWithReadyFile() throws Exception
    {
        // Zilla's container images run `zilla start -v -e` in the directory of zilla.yaml, and test for the ready file
        final int port = freePort();
        Files.copy(exampleOnPort(port), temp.resolve("zilla.yaml"));
        final Path ready = temp.resolve(".zilla/engine/ready");

        final ZillaProcess zilla = zilla("start", "-v", "-e");
        zilla.awaitOut("started zilla", TIMEOUT);

        assertEquals(List.of("started binding north_tcp_server (tcp server)", "started binding north_echo_server (echo server)"),
            zilla.out().subList(0, 2));
        assertEquals(String.valueOf(zilla.process().pid()), Files.readString(ready).strip());
        assertEchoes(port);
        zilla.sigterm();
        assertEquals(0, zilla.awaitExit(TIMEOUT), zilla.err().toString());
        assertFalse(Files.exists(ready), "the ready file is removed on stop");
        assertEquals(List.of(), zilla.err());
    }

    @Test
    void shouldPrintTheStartFailuresTraceWithExceptionTraces() throws Exception
    {
        try (ServerSocket taken = new ServerSocket())
        {
            taken.bind(new InetSocketAddress(0));
            final Path config = exampleOnPort(taken.getLocalPort());

            final Path directory = temp.resolve("engine");
            final ZillaProcess zilla = zilla("start", "-e", "-c", config, "-P", "zilla.engine.directory=" + directory);

            assertEquals(1, zilla.awaitExit(TIMEOUT));
            assertTrue(zilla.err().get(0).startsWith("zilla could not start: "), zilla.err().toString());
            assertTrue(zilla.err().stream().anyMatch(line -> line.startsWith("\tat io.zilla.")), zilla.err().toString());
            assertFalse(Files.exists(directory.resolve("ready")));
        }
    }

    @Test
    void shouldFailWithOneLineWhenPortIsInUse() throws Exception
    {
        try (ServerSocket taken = new ServerSocket())
        {
            taken.bind(new InetSocketAddress(0));
            final Path config = exampleOnPort(taken.getLocalPort());

            final ZillaProcess zilla = zilla("start", "-c", config, "-P", "zilla.engine.directory=" + temp.resolve("engine"));

            assertEquals(1, zilla.awaitExit(TIMEOUT));
            assertEquals(1, zilla.err().size(), zilla.err().toString());
            assertTrue(zilla.err().get(0).startsWith("zilla could not start: "), zilla.err().toString());
            assertFalse(EngineLock.isHeld(temp.resolve("engine")));
        }
    }

    @Test
    void shouldRefuseThePortOfAnotherZilla() throws Exception
    {
        // both zillas listen with SO_REUSEPORT, which would let the second join the first's port and take half its
        // connections; the second must refuse to start instead
        final int port = freePort();
        final Path config = exampleOnPort(port);
        final Path directory = temp.resolve("first");
        final ZillaProcess first = zilla("start", "-c", config, "-w", 2, "-P", "zilla.engine.directory=" + directory);
        first.awaitOut("started zilla", TIMEOUT);

        final ZillaProcess second = zilla("start", "-c", config, "-P", "zilla.engine.directory=" + temp.resolve("second"));

        assertEquals(1, second.awaitExit(TIMEOUT));
        assertEquals(1, second.err().size(), second.err().toString());
        final String refused = "zilla could not start: bindings.north_tcp_server: port " + port + " is in use";
        assertTrue(second.err().get(0).startsWith(refused), second.err().toString());
        for (int i = 0; i < 8; i++)
        {
            assertEchoes(port);
        }
        first.sigterm();
        assertEquals(0, first.awaitExit(TIMEOUT));
    }

    @Test
    void shouldFailWithOneLineWhenEngineDirectoryIsInUse() throws Exception
    {
        final Path directory = temp.resolve("engine");
        final ZillaProcess first = zilla("start", "-c", exampleOnPort(freePort()), "-P", "zilla.engine.directory=" + directory);
        first.awaitOut("started zilla", TIMEOUT);

        final ZillaProcess second = zilla("start", "-c", exampleOnPort(freePort()), "-P", "zilla.engine.directory=" + directory);

        assertEquals(1, second.awaitExit(TIMEOUT));
        assertEquals(List.of("zilla could not start: the engine directory " + directory + " is in use by another zilla"),
            second.err());
        first.sigterm();
        assertEquals(0, first.awaitExit(TIMEOUT));
    }

    @Test
    void shouldPrintConfigErrorsAndFail() throws Exception
    {
        final Path config = temp.resolve("zilla.yaml");
        final String example = Files.readString(EXAMPLES.resolve("tcp.echo/zilla.yaml"));
        // two mistakes: an exit to no binding, a binding type that is not installed
        Files.writeString(config, example.replace("exit: north_echo_server", "exit: nowhere")
            .replace("type: echo", "type: bogus"));

        final ZillaProcess zilla = zilla("start", "-c", config);

        assertEquals(1, zilla.awaitExit(TIMEOUT));
        assertFalse(zilla.err().isEmpty());
        zilla.err().forEach(error -> assertTrue(error.startsWith(config + ":"), zilla.err().toString()));
    }

    @Test
    void shouldValidateExample() throws Exception
    {
        final Path config = EXAMPLES.resolve("tcp.echo/zilla.yaml");

        final ZillaProcess zilla = zilla("validate", "-c", config);

        assertEquals(0, zilla.awaitExit(TIMEOUT), zilla.err().toString());
        assertEquals(List.of(config + " is valid"), zilla.out());
        assertEquals(List.of(), zilla.err());
    }

    @Test
    void shouldPrintVersionThroughSymbolicLink() throws Exception
    {
        // the launcher finds lib/ from its real location, wherever it is linked from
        final Path link = Files.createSymbolicLink(temp.resolve("zilla"), DISTRIBUTION.resolve("bin/zilla"));
        final Process process = new ProcessBuilder(link.toString(), "version").directory(temp.toFile()).start();
        final ZillaProcess viaJar = zilla("version");

        final String printed = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor());
        assertEquals(0, viaJar.awaitExit(TIMEOUT));
        assertTrue(printed.matches("zilla \\d+\\.\\d+\\.\\d+(-SNAPSHOT)?\\R"), printed);
        assertEquals(List.of(printed.strip()), viaJar.out());
        // removed here: JUnit warns about a link out of its temporary directory
        Files.delete(link);
    }

    private static void assertEchoes(int port) throws IOException
    {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port))
        {
            socket.setSoTimeout((int) TIMEOUT.toMillis());
            socket.getOutputStream().write(HELLO);
            assertArrayEquals(HELLO, readFully(socket.getInputStream(), HELLO.length));
        }
    }

    private void assertEchoCounted(Path directory) throws Exception
    {
        final ZillaProcess metrics = zilla("metrics", "-d", directory, "north_echo_server");
        assertEquals(0, metrics.awaitExit(TIMEOUT), metrics.err().toString());
        final List<String> echoed = List.of("north_echo_server", "bytes.received", String.valueOf(HELLO.length));
        assertTrue(metrics.out().stream().anyMatch(line -> columns(line).equals(echoed)), metrics.out().toString());
    }

    private ZillaProcess zilla(Object... args) throws IOException
    {
        final ZillaProcess process = ZillaProcess.start(DISTRIBUTION, temp, args);
        processes.add(process);
        return process;
    }

    /** The tcp.echo example, exactly as shipped, on another port. */
    private Path exampleOnPort(int port) throws IOException
    {
        final Path config = Files.createTempFile(temp, "zilla", ".yaml");
        final String example = Files.readString(EXAMPLES.resolve("tcp.echo/zilla.yaml"));
        Files.writeString(config, example.replace("12345", String.valueOf(port)));
        return config;
    }

    private static int freePort() throws IOException
    {
        return FreePorts.next();
    }

    private static byte[] readFully(InputStream in, int length) throws IOException
    {
        final byte[] bytes = in.readNBytes(length);
        if (bytes.length < length)
        {
            throw new AssertionError("the echo ended after " + bytes.length + " of " + length + " bytes");
        }
        return bytes;
    }

    private static List<String> columns(String line)
    {
        return Arrays.asList(line.trim().split("\\s+"));
    }
}
