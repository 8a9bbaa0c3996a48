/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
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
import org.junit.jupiter.api.io.TempDir;

/** zilla metrics reads the counters a real engine wrote: a test client's streams through the echo binding. */
class MetricsCommandTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(10);
    private static final long CLIENT_ID = 1L << 32 | 1;
    private static final long ECHO_ID = 1L << 32 | 2;
    private static final byte[] HELLO = "hello, zilla".getBytes(StandardCharsets.UTF_8);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldPrintCountersOfEveryBinding()
    {
        echoThroughEngine();
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("metrics", "-d", engine.directory().toString()));

        final List<String> lines = zilla.out().lines().toList();
        assertEquals(List.of("binding", "counter", "value"), columns(lines.get(0)));
        assertRow(zilla.out(), "north_echo_server", "bytes.received", HELLO.length);
        assertRow(zilla.out(), "north_echo_server", "streams.opened", 1);
        assertRow(zilla.out(), "app", "bytes.received", HELLO.length);
        assertEquals("", zilla.err());
    }

    @Test
    void shouldPrintEachHistogramAsCountSumAndQuantiles() throws Exception
    {
        final int port = FreePorts.freePort();
        final int metricsPort = FreePorts.freePort();
        engine.startText("zilla.yaml", Files.readString(Path.of("..", "examples", "http.metrics", "zilla.yaml"))
            .replace("7114", Integer.toString(port))
            .replace("7190", Integer.toString(metricsPort)));
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < 2; i++)
        {
            final HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port
                + "/")).POST(HttpRequest.BodyPublishers.ofString("Hello, world")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals("Hello, world", response.body());
        }
        // the second response's metrics are recorded as it ends: a moment after the client may have read it
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        Zilla zilla;
        do
        {
            zilla = new Zilla();
            assertEquals(0, zilla.run("metrics", "-d", engine.directory().toString(), "north_http_server"));
        }
        while (!hasRow(zilla.out(), "http.duration.count", "2") && System.nanoTime() < deadline);

        assertRow(zilla.out(), "north_http_server", "http.request.size.count", 2);
        assertRow(zilla.out(), "north_http_server", "http.request.size.sum", 24);
        // both 12-byte bodies are in the first bucket, at most 64 bytes
        assertRow(zilla.out(), "north_http_server", "http.request.size.p50", 64);
        assertRow(zilla.out(), "north_http_server", "http.request.size.p99", 64);
        assertRow(zilla.out(), "north_http_server", "http.duration.count", 2);
        assertRow(zilla.out(), "north_http_server", "http.active.requests", 0);
    }

    private static boolean hasRow(String table, String counter, String value)
    {
        return table.lines().anyMatch(line -> columns(line).size() == 3 && columns(line).get(1).equals(counter)
            && columns(line).get(2).equals(value));
    }

    @Test
    void shouldPrintCountersOfOneBinding()
    {
        echoThroughEngine();
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("metrics", "north_echo_server", "--directory", engine.directory().toString()));

        final List<String> rows = zilla.out().lines().skip(1).toList();
        assertTrue(rows.size() > 1, zilla.out());
        rows.forEach(row -> assertEquals("north_echo_server", columns(row).get(0), zilla.out()));
    }

    @Test
    void shouldReadCountersOfStoppedEngine()
    {
        echoThroughEngine();
        engine.engine().close();
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("metrics", "north_echo_server", "-d", engine.directory().toString()));

        assertRow(zilla.out(), "north_echo_server", "bytes.sent", HELLO.length);
    }

    @Test
    void shouldAlignValuesToTheRight()
    {
        echoThroughEngine();
        final Zilla zilla = new Zilla();

        zilla.run("metrics", "-d", engine.directory().toString());

        final List<String> lines = zilla.out().lines().toList();
        lines.forEach(line -> assertEquals(lines.get(0).length(), line.length(), zilla.out()));
    }

    @Test
    void shouldFailForUnknownBinding()
    {
        echoThroughEngine();
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("metrics", "south_kafka_client", "-d", engine.directory().toString()));

        assertEquals("zilla: no counters for binding south_kafka_client in " + engine.directory() + "\n", zilla.err());
        assertEquals("", zilla.out());
    }

    @Test
    void shouldFailForMissingDirectory(@TempDir Path temp)
    {
        final Path missing = temp.resolve("engine");
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("metrics", "-d", missing.toString()));

        assertEquals("zilla: no counters: no engine directory at " + missing + " (-d DIR names another)\n", zilla.err());
        assertEquals("", zilla.out());
    }

    @Test
    void shouldFailForDirectoryWithoutCounters(@TempDir Path temp) throws IOException
    {
        Files.writeString(temp.resolve("zilla.yaml"), "name: test\n");
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("metrics", "-d", temp.toString()));

        assertEquals("zilla: no zilla counters in " + temp + "\n", zilla.err());
    }

    @Test
    void shouldFailForEngineWithoutStreamsYet()
    {
        engine.start(config());
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("metrics", "-d", engine.directory().toString()));

        assertTrue(zilla.err().startsWith("zilla: no counters in " + engine.directory() + " yet"), zilla.err());
    }

    /** Starts the engine and sends bytes from a test client to the echo binding and back. */
    private void echoThroughEngine()
    {
        engine.start(config());
        final TestClient client = TestBinding.client("app");
        final TestStream stream = client.open();
        client.write(stream, HELLO);
        stream.await(TIMEOUT, () -> stream.received().length == HELLO.length);
        assertEquals(new String(HELLO, StandardCharsets.UTF_8), new String(stream.received(), StandardCharsets.UTF_8));
    }

    /** A test client routed to an echo server, written by hand as the config reader would bind it. */
    private static NamespaceConfig config()
    {
        final RouteConfig toEcho = new RouteConfig(0, List.of(), null, "north_echo_server", ECHO_ID, Map.of());
        final BindingConfig app = new BindingConfig(CLIENT_ID, "app", "test", KindConfig.CLIENT, null, null, List.of(toEcho));
        final BindingConfig echo = new BindingConfig(ECHO_ID, "north_echo_server", "echo", KindConfig.SERVER, null, null,
            List.of());
        return new NamespaceConfig("test", List.of(app, echo), List.of(), List.of(), TelemetryConfig.EMPTY);
    }

    private static List<String> columns(String line)
    {
        return Arrays.asList(line.trim().split("\\s+"));
    }

    private static void assertRow(String table, String binding, String counter, long value)
    {
        final List<String> expected = List.of(binding, counter, String.valueOf(value));
        assertTrue(table.lines().anyMatch(line -> columns(line).equals(expected)), "no row " + expected + " in:\n" + table);
    }
}
