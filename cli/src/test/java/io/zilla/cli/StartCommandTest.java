/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import com.sun.net.httpserver.HttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** zilla start in-process: the engine runs until the test plays SIGTERM through the shutdown hooks. */
class StartCommandTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    @TempDir
    Path temp;

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stopExecutor() throws InterruptedException
    {
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "a command is still running");
    }

    @Test
    void shouldStartAndStopCleanlyOnSignal() throws Exception
    {
        final Path config = ConfigResources.copy(ConfigResources.ECHO, temp);
        final Path directory = temp.resolve("engine");
        final Zilla zilla = new Zilla();

        final Future<Integer> status = start(zilla, "-c", config.toString(), "-w", "1", "-P", directory(directory));
        zilla.awaitOut("started zilla", TIMEOUT);

        assertEquals("started zilla with 1 worker: north_echo_server\n", zilla.out());
        assertTrue(EngineLock.isHeld(directory), "the engine directory is locked while zilla runs");
        assertFalse(status.isDone());

        zilla.hooks().signal();

        assertEquals(0, status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(0, zilla.hooks().halted());
        assertEquals("started zilla with 1 worker: north_echo_server\nstopped zilla\n", zilla.out());
        assertFalse(EngineLock.isHeld(directory), "the lock is released");
        assertEquals("", zilla.err());
    }

    @Test
    void shouldPrintEveryBindingWhenVerbose() throws Exception
    {
        final Path config = ConfigResources.copy(ConfigResources.ECHO, temp);
        final Zilla zilla = new Zilla();

        final Future<Integer> status = start(zilla, "start", "-v", "--workers", "2", "-c", config.toString(),
            "--property", directory(temp.resolve("engine")));
        zilla.awaitOut("started zilla", TIMEOUT);
        zilla.hooks().signal();

        assertEquals(0, status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(List.of("started binding north_echo_server (echo server)", "started zilla with 2 workers: north_echo_server",
            "stopped zilla"), zilla.out().lines().toList());
    }

    @Test
    void shouldStopWhenSignalledDuringStart() throws Exception
    {
        final Path config = ConfigResources.copy(ConfigResources.ECHO, temp);
        final Zilla zilla = new Zilla();

        // the hook is registered before the engine starts: a signal then waits for the start and stops the engine
        final Future<Integer> status = start(zilla, "-c", config.toString(), "-P", directory(temp.resolve("engine")));
        while (zilla.hooks().registered() == 0)
        {
            Zilla.sleep(1);
        }
        zilla.hooks().signal();

        assertEquals(0, status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(0, zilla.hooks().halted());
        assertFalse(EngineLock.isHeld(temp.resolve("engine")));
    }

    @Test
    void shouldPrintEveryConfigErrorAndFail() throws Exception
    {
        final Path config = ConfigResources.copy(ConfigResources.INVALID, temp);
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("start", "-c", config.toString(), "-P", directory(temp.resolve("engine"))));

        final List<String> errors = zilla.err().lines().toList();
        assertTrue(errors.size() >= 2, zilla.err());
        errors.forEach(error -> assertTrue(error.matches(Pattern.quote(config.toString()) + ":\\d+:\\d+ .+"), error));
        assertEquals("", zilla.out());

        // System.exit(1) then runs the hook, which must keep the failure's status
        zilla.hooks().signal();
        assertEquals(1, zilla.hooks().halted());
    }

    @Test
    void shouldFailWithOneLineWhenPortIsInUse() throws Exception
    {
        try (ServerSocket taken = new ServerSocket())
        {
            taken.bind(new InetSocketAddress(0));
            final int port = taken.getLocalPort();
            final Path config = temp.resolve("zilla.yaml");
            final String example = Files.readString(Path.of("..", "examples", "tcp.echo", "zilla.yaml"));
            Files.writeString(config, example.replace("12345", String.valueOf(port)));
            final Path directory = temp.resolve("engine");
            final Zilla zilla = new Zilla();

            assertEquals(1, zilla.run("start", "-c", config.toString(), "-P", directory(directory)));

            final List<String> errors = zilla.err().lines().toList();
            assertEquals(1, errors.size(), zilla.err());
            assertTrue(errors.get(0).startsWith("zilla could not start: "), zilla.err());
            assertTrue(errors.get(0).contains(String.valueOf(port)), zilla.err());
            assertEquals("", zilla.out());
            assertFalse(EngineLock.isHeld(directory), "a failed start releases the engine directory");
        }
    }

    @Test
    void shouldPrintAndServeThePrometheusEndpoint() throws Exception
    {
        final int metricsPort = FreePorts.freePort();
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
              north_echo_server:
                type: echo
                kind: server
                telemetry:
                  metrics:
                    - stream.opens.*
            """.formatted(metricsPort));
        final Zilla zilla = new Zilla();

        final Future<Integer> status = start(zilla, "-c", config.toString(), "-w", "1", "-P",
            directory(temp.resolve("engine")));
        zilla.awaitOut("started zilla", TIMEOUT);
        final HttpResponse<String> scrape = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(), HttpResponse.BodyHandlers.ofString());
        zilla.hooks().signal();

        assertEquals(0, status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(List.of("metrics: prometheus_metric_exporter http://0.0.0.0:" + metricsPort + "/metrics",
            "started zilla with 1 worker: north_echo_server", "stopped zilla"), zilla.out().lines().toList());
        assertEquals(200, scrape.statusCode());
        assertTrue(scrape.body().contains(
            "stream_opens_received_total{binding=\"north_echo_server\",namespace=\"example\"} 0.0"), scrape.body());
        assertFalse(scrape.body().contains("stream_closes"), scrape.body());
    }

    @Test
    void shouldPrintAndServeTheHealthEndpoint() throws Exception
    {
        final int healthPort = FreePorts.freePort();
        final Path config = ConfigResources.copy(ConfigResources.ECHO, temp);
        final Zilla zilla = new Zilla();

        final Future<Integer> status = start(zilla, "-c", config.toString(), "-w", "1", "--health-port",
            String.valueOf(healthPort), "-P", directory(temp.resolve("engine")));
        zilla.awaitOut("started zilla", TIMEOUT);
        final HttpClient client = HttpClient.newHttpClient();
        final HttpResponse<String> ready = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + healthPort + "/health/ready")).build(), HttpResponse.BodyHandlers.ofString());
        final HttpResponse<String> live = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + healthPort + "/health/live")).build(), HttpResponse.BodyHandlers.ofString());
        zilla.hooks().signal();

        assertEquals(0, status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
        assertEquals(List.of("health: http://0.0.0.0:" + healthPort + "/health/ready, /health/live",
            "started zilla with 1 worker: north_echo_server", "stopped zilla"), zilla.out().lines().toList());
        assertEquals(200, ready.statusCode());
        assertEquals("{\"ready\":true}\n", ready.body());
        assertEquals(200, live.statusCode());
        assertEquals("{\"live\":true,\"workers\":1}\n", live.body());
    }

    @Test
    void shouldPrintTheOtlpExporterAndPushAtTheStop() throws Exception
    {
        // a collector's OTLP/HTTP endpoint: each push's authorization header, answered 200
        final List<String> pushes = new CopyOnWriteArrayList<>();
        final HttpServer collector = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        collector.createContext("/v1/metrics", exchange ->
        {
            exchange.getRequestBody().readAllBytes();
            pushes.add(exchange.getRequestHeaders().getFirst("Authorization"));
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        collector.start();
        try
        {
            final String location = "http://127.0.0.1:" + collector.getAddress().getPort();
            final Path config = temp.resolve("zilla.yaml");
            Files.writeString(config, """
                name: example
                telemetry:
                  metrics:
                    - stream.*
                  exporters:
                    otlp_exporter:
                      type: otlp
                      options:
                        interval: 3600
                        endpoint:
                          location: %s
                          headers:
                            authorization: Bearer token
                bindings:
                  north_echo_server:
                    type: echo
                    kind: server
                    telemetry:
                      metrics:
                        - stream.opens.*
                """.formatted(location));
            final Zilla zilla = new Zilla();

            final Future<Integer> status = start(zilla, "-c", config.toString(), "-w", "1", "-P",
                directory(temp.resolve("engine")));
            zilla.awaitOut("started zilla", TIMEOUT);
            zilla.hooks().signal();

            assertEquals(0, status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            assertEquals(List.of("metrics: otlp_exporter metrics, logs every 3600 s to " + location + "/v1/metrics, "
                + location + "/v1/logs",
                "started zilla with 1 worker: north_echo_server", "stopped zilla"), zilla.out().lines().toList());
            // the interval is an hour: only the stop pushed, the counters and gauges
            assertEquals(List.of("Bearer token"), pushes);
        }
        finally
        {
            collector.stop(0);
        }
    }

    @Test
    void shouldFailWithOneLineForBadWorkers()
    {
        final Path config = ConfigResources.copy(ConfigResources.ECHO, temp);
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("start", "-c", config.toString(), "-w", "0", "-P", directory(temp.resolve("engine"))));

        assertTrue(zilla.err().matches("zilla could not start: workers must be 1 to \\d+, not 0\\R"), zilla.err());
    }

    @Test
    void shouldFailWithOneLineForBadProperty()
    {
        final Path config = ConfigResources.copy(ConfigResources.ECHO, temp);
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("start", "-c", config.toString(), "-P", "zilla.engine.workers=many",
            "-P", directory(temp.resolve("engine"))));

        assertEquals("zilla could not start: zilla.engine.workers: 'many' is not an integer\n", zilla.err());
    }

    @Test
    void shouldFailForMissingFile()
    {
        final Path config = temp.resolve("missing.yaml");
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("start", "-c", config.toString()));

        assertEquals("zilla: cannot read " + config + ": no such file\n", zilla.err());
        assertNull(zilla.hooks().halted());
    }

    @Test
    void shouldReadZillaYamlOfTheWorkingDirectoryWithoutConfig()
    {
        // as Zilla's zilla start, which its container images run without -c; the module's directory has none
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("start", "-w", "1"));

        assertEquals("zilla: cannot read zilla.yaml: no such file\n", zilla.err());
        assertNull(zilla.hooks().halted());
    }

    @Test
    void shouldRejectPropertyWithoutValue()
    {
        final Zilla zilla = new Zilla();

        assertEquals(2, zilla.run("start", "-c", "zilla.yaml", "-P", "zilla.engine.workers"));

        assertTrue(zilla.err().contains("should be in KEY=VALUE format"), zilla.err());
    }

    @Test
    void shouldRejectWorkersThatAreNotNumbers()
    {
        final Zilla zilla = new Zilla();

        assertEquals(2, zilla.run("start", "-c", "zilla.yaml", "-w", "two"));

        assertTrue(zilla.err().startsWith("Invalid value for option '--workers': 'two' is not an int"), zilla.err());
    }

    /** Runs {@code zilla start args...} (or {@code zilla args...} when they begin with start) on another thread. */
    private Future<Integer> start(Zilla zilla, String... args)
    {
        final String[] command = args[0].equals("start") ? args : prepend("start", args);
        return executor.submit(() -> zilla.run(command));
    }

    private static String[] prepend(String first, String[] rest)
    {
        final String[] all = new String[rest.length + 1];
        all[0] = first;
        System.arraycopy(rest, 0, all, 1, rest.length);
        return all;
    }

    private static String directory(Path directory)
    {
        return "zilla.engine.directory=" + directory;
    }
}
