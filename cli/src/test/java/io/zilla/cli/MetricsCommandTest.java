/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
    private static final String ATTRIBUTES = """
              attributes:
                method: ${http.request.method}
                status: ${http.response.status}
        """;

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
        final Zilla zilla = httpMetrics("north_http_server");

        assertRow(zilla.out(), "north_http_server", "http.request.size.count", 2);
        assertRow(zilla.out(), "north_http_server", "http.request.size.sum", 24);
        // both 12-byte bodies are in the first bucket, at most 64 bytes
        assertRow(zilla.out(), "north_http_server", "http.request.size.p50", 64);
        assertRow(zilla.out(), "north_http_server", "http.request.size.p99", 64);
        assertRow(zilla.out(), "north_http_server", "http.duration.count", 2);
        assertRow(zilla.out(), "north_http_server", "http.active.requests", 0);
    }

    @Test
    void shouldPrintTheExportersTextFormat() throws Exception
    {
        httpMetrics("north_http_server");
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("metrics", "-d", engine.directory().toString(), "--format", "prometheus"));

        final String text = zilla.out();
        assertTrue(text.contains("# TYPE http_duration_seconds histogram\n"), text);
        assertTrue(text.contains("http_duration_seconds_count{binding=\"north_http_server\"} 2\n"), text);
        assertTrue(text.contains("http_request_size_bytes_bucket{binding=\"north_http_server\",le=\"64\"} 2\n"), text);
        assertTrue(text.contains("http_request_size_bytes_bucket{binding=\"north_http_server\",le=\"+Inf\"} 2\n"), text);
        assertTrue(text.contains("http_request_size_bytes_sum{binding=\"north_http_server\"} 24\n"), text);
        assertTrue(text.contains("stream_opens_sent_total{binding=\"north_tcp_server\"} "), text);
        // the always-on counters have no Prometheus shape
        assertFalse(text.contains("streams_opened"), text);
        // Prometheus' own linter finds nothing to say
        final Process promtool = new ProcessBuilder("/usr/bin/promtool", "check", "metrics")
            .redirectErrorStream(true)
            .start();
        try (java.io.OutputStream in = promtool.getOutputStream())
        {
            in.write(text.getBytes(StandardCharsets.UTF_8));
        }
        final String lint = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(promtool.waitFor(30, java.util.concurrent.TimeUnit.SECONDS));
        assertEquals(0, promtool.exitValue(), lint);
        assertEquals("", lint.trim(), lint);
    }

    @Test
    void shouldPrintJsonForScripts() throws Exception
    {
        httpMetrics("north_http_server");
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("metrics", "-d", engine.directory().toString(), "--format", "json",
            "-m", "http.request.*"));

        final com.fasterxml.jackson.databind.JsonNode series = new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(zilla.out());
        assertEquals(1, series.size(), zilla.out());
        final com.fasterxml.jackson.databind.JsonNode size = series.get(0);
        assertEquals("north_http_server", size.path("binding").asText());
        assertEquals("http.request.size", size.path("metric").asText());
        assertEquals("histogram", size.path("kind").asText());
        assertEquals("bytes", size.path("unit").asText());
        assertEquals(2, size.path("count").asLong());
        assertEquals(24, size.path("sum").asLong());
        assertEquals(64, size.path("buckets").get(0).path("le").asLong());
        assertEquals(2, size.path("buckets").get(0).path("count").asLong());
        assertEquals("+Inf", size.path("buckets").get(size.path("buckets").size() - 1).path("le").asText());
    }

    @Test
    void shouldFilterByMetricAndPrintAgainWhenWatching() throws Exception
    {
        httpMetrics("north_http_server");
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("metrics", "-d", engine.directory().toString(), "-m", "http.active.*",
            "-m", "stream.opens.*", "--watch", "1", "--iterations", "2"));

        final List<String> lines = zilla.out().lines().toList();
        // printed twice, a second apart (no terminal here: no screen cleared between them), with a rate column
        assertEquals(2, lines.stream()
            .filter(line -> columns(line).equals(List.of("binding", "counter", "value", "rate/s"))).count(), zilla.out());
        final int second = lines.lastIndexOf(lines.get(0));
        // no rate on the first print; on the second a counter's (nothing moved in between: 0.0), none for a gauge
        assertTrue(lines.subList(1, second).stream().allMatch(line -> columns(line).get(3).equals("-")), zilla.out());
        assertTrue(lines.subList(second + 1, lines.size()).stream()
            .allMatch(line -> columns(line).get(3).equals(columns(line).get(1).startsWith("stream.opens") ? "0.0" : "-")),
            zilla.out());
        assertTrue(lines.stream().skip(1).filter(line -> !columns(line).get(0).equals("binding"))
            .allMatch(line -> columns(line).get(1).matches("(http\\.active|stream\\.opens)\\..*")),
            zilla.out());
        assertRow(zilla.out(), "north_http_server", "http.active.requests", 0);
    }

    @Test
    void shouldRefuseAWatchIntervalBelowOneSecond()
    {
        echoThroughEngine();
        final Zilla zilla = new Zilla();

        assertEquals(2, zilla.run("metrics", "-d", engine.directory().toString(), "--watch", "0"));
        assertEquals("zilla: --watch 0: the interval is a whole number of seconds, at least 1\n", zilla.err());
    }

    @Test
    void shouldPrintTheLabelsOfTheAttributes() throws Exception
    {
        final Zilla table = httpMetrics("north_http_server", ATTRIBUTES, "http.duration.count{method=POST,status=200}");
        assertRow(table.out(), "north_http_server", "http.request.size.sum{method=POST,status=200}", 24);
        assertRow(table.out(), "north_http_server", "http.request.size.p50{method=POST,status=200}", 64);

        final Zilla zilla = new Zilla();
        assertEquals(0, zilla.run("metrics", "-d", engine.directory().toString(), "--format", "prometheus"));
        final String text = zilla.out();
        assertTrue(text.contains("http_duration_seconds_count{binding=\"north_http_server\",method=\"POST\","
            + "status=\"200\"} 2\n"), text);
        assertTrue(text.contains("http_request_size_bytes_bucket{binding=\"north_http_server\",method=\"POST\","
            + "status=\"200\",le=\"64\"} 2\n"), text);
    }

    /** Two POSTs through examples/http.metrics, then zilla metrics BINDING once their metrics are recorded. */
    private Zilla httpMetrics(String binding) throws Exception
    {
        return httpMetrics(binding, "", "http.duration.count");
    }

    /**
     * The same with {@code attributes} added to the http binding's telemetry (or not, when empty), waiting for the
     * row {@code durations}.
     */
    private Zilla httpMetrics(String binding, String attributes, String durations) throws Exception
    {
        final int port = FreePorts.freePort();
        final int metricsPort = FreePorts.freePort();
        engine.startText("zilla.yaml", Files.readString(Path.of("..", "examples", "http.metrics", "zilla.yaml"))
            .replace("7114", Integer.toString(port))
            .replace("7190", Integer.toString(metricsPort))
            .replace("        - http.*\n", "        - http.*\n" + attributes));
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
            assertEquals(0, zilla.run("metrics", "-d", engine.directory().toString(), binding));
        }
        while (!hasRow(zilla.out(), durations, "2") && System.nanoTime() < deadline);
        return zilla;
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
    void shouldPrintTheEnginesOwnBeforeAnyStream()
    {
        engine.start(config());
        final Zilla zilla = new Zilla();

        assertEquals(0, zilla.run("metrics", "-d", engine.directory().toString()));

        // the workers count themselves from their start: (engine) is no binding's name
        assertRow(zilla.out(), "(engine)", "engine.workers", engine.engine().configuration().workers());
        assertTrue(zilla.out().lines().skip(1).allMatch(line -> columns(line).get(0).equals("(engine)")), zilla.out());
    }

    @Test
    void shouldFailForAMetricNoneRecorded()
    {
        engine.start(config());
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("metrics", "-d", engine.directory().toString(), "-m", "http.*"));

        assertEquals("zilla: no counters for http.* in " + engine.directory() + "\n", zilla.err());
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
        // a --watch table has a fourth column, the rate
        assertTrue(table.lines().anyMatch(line -> columns(line).subList(0, Math.min(3, columns(line).size())).equals(expected)),
            "no row " + expected + " in:\n" + table);
    }
}
