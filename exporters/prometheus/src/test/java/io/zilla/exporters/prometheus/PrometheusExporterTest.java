/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import static io.zilla.exporters.prometheus.Scrapes.assertLintFree;
import static io.zilla.exporters.prometheus.Scrapes.awaitSeries;
import static io.zilla.exporters.prometheus.Scrapes.scrape;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.Map;

import io.zilla.engine.Engine;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** A tcp server into echo, its stream metrics exported: a scrape shows exactly the connections driven through it. */
class PrometheusExporterTest
{
    private static final int CONNECTIONS = 3;
    private static final byte[] MESSAGE = "hello".getBytes(StandardCharsets.US_ASCII);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @TempDir
    Path temp;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void shouldExportTheSelectedStreamMetricsOfTheBinding() throws Exception
    {
        final int port = FreePorts.next();
        final int metricsPort = FreePorts.next();
        final Engine started = engine.startText("zilla.yaml", yaml(port, metricsPort));
        assertEquals("prometheus_metric_exporter http://0.0.0.0:" + metricsPort + "/metrics",
            String.join(",", started.exporterDescriptions()));

        for (int i = 0; i < CONNECTIONS; i++)
        {
            try (Socket socket = new Socket())
            {
                socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(MESSAGE);
                assertArrayEquals(MESSAGE, socket.getInputStream().readNBytes(MESSAGE.length));
            }
        }

        final String labels = "{binding=\"net\",namespace=\"example\",service_namespace=\"demo\"}";
        final Map<String, String> series = awaitSeries(metricsPort, "stream_closes_received_total" + labels,
            String.valueOf((double) CONNECTIONS));
        assertEquals(String.valueOf((double) CONNECTIONS), series.get("stream_opens_sent_total" + labels), series::toString);
        assertEquals(String.valueOf((double) CONNECTIONS), series.get("stream_opens_received_total" + labels), series::toString);
        assertEquals(String.valueOf((double) CONNECTIONS), series.get("stream_closes_sent_total" + labels), series::toString);
        final String bytes = String.valueOf((double) CONNECTIONS * MESSAGE.length);
        assertEquals(bytes, series.get("stream_data_sent_bytes_total" + labels), series::toString);
        assertEquals(bytes, series.get("stream_data_received_bytes_total" + labels), series::toString);
        assertEquals("0.0", series.get("stream_active_sent" + labels), series::toString);
        assertEquals("0.0", series.get("stream_active_received" + labels), series::toString);
        // stream.errors.* is not in the binding's list, and the echo binding has none
        assertFalse(series.keySet().stream().anyMatch(name -> name.startsWith("stream_errors")), series::toString);
        assertFalse(series.keySet().stream().anyMatch(name -> name.contains("binding=\"app\"")), series::toString);
        assertEquals(8, series.size(), series::toString);
        assertLintFree(metricsPort);
    }

    /** Prometheus' own linter (promtool, Debian's prometheus package: .ci/run installs it) finds nothing to say. */
    @Test
    void shouldShowAnOpenConnectionAsActive() throws Exception
    {
        final int port = FreePorts.next();
        final int metricsPort = FreePorts.next();
        engine.startText("zilla.yaml", yaml(port, metricsPort));
        try (Socket socket = new Socket())
        {
            socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 5_000);
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(MESSAGE);
            assertArrayEquals(MESSAGE, socket.getInputStream().readNBytes(MESSAGE.length));

            final String labels = "{binding=\"net\",namespace=\"example\",service_namespace=\"demo\"}";
            final Map<String, String> series = awaitSeries(metricsPort, "stream_active_received" + labels, "1.0");
            assertEquals("1.0", series.get("stream_active_sent" + labels), series::toString);
            assertEquals("0.0", series.get("stream_closes_sent_total" + labels), series::toString);
        }
    }

    @Test
    void shouldDropTheSeriesOfABindingThatAReloadRemoves() throws Exception
    {
        final int port = FreePorts.next();
        final int metricsPort = FreePorts.next();
        final Path file = temp.resolve("zilla.yaml");
        Files.writeString(file, yaml(port, metricsPort));
        engine.startWatching(file);
        awaitSeries(metricsPort, "stream_opens_sent_total{binding=\"net\",namespace=\"example\",service_namespace=\"demo\"}",
            "0.0");

        // net becomes north, on another port (the old listener closes as the new one binds)
        final int northPort = FreePorts.next();
        Files.writeString(file, yaml(northPort, metricsPort).replace("  net:", "  north:"));
        awaitEvent("engine.config.reloaded", "2 bindings");
        final Map<String, String> series = scrape(metricsPort);

        assertEquals("0.0", series.get(
            "stream_opens_sent_total{binding=\"north\",namespace=\"example\",service_namespace=\"demo\"}"), series::toString);
        assertFalse(series.keySet().stream().anyMatch(name -> name.contains("binding=\"net\"")), series::toString);
        assertEquals(8, series.size(), series::toString);

        // another exporter port would be ignored until a restart: the reload is rejected instead
        Files.writeString(file, yaml(northPort, FreePorts.next()).replace("  net:", "  north:"));
        awaitEvent("engine.config.rejected", "telemetry.exporters changed: restart zilla to apply it");
        assertEquals(series, scrape(metricsPort));
    }

    @Test
    void shouldExportTheEnginesOwnMetricsWhenTheNamespaceSelectsThem() throws Exception
    {
        final int port = FreePorts.next();
        final int metricsPort = FreePorts.next();
        engine.startText("zilla.yaml", yaml(port, metricsPort).replace("    - stream.*\n", "    - stream.*\n    - engine.*\n"));

        final String labels = "{namespace=\"example\",service_namespace=\"demo\"}";
        // summed over the workers: the count of them, their rings and slots
        final Map<String, String> series = awaitSeries(metricsPort, "engine_workers" + labels,
            String.valueOf((double) engine.engine().configuration().workers()));
        assertTrue(Double.parseDouble(series.get("engine_ring_capacity_bytes" + labels)) > 0, series::toString);
        assertTrue(Double.parseDouble(series.get("engine_buffer_slots_capacity" + labels)) > 0, series::toString);
        assertEquals("0.0", series.get("engine_ring_full_total" + labels), series::toString);
        assertTrue(series.containsKey("engine_ring_used_bytes" + labels), series::toString);
        assertTrue(series.containsKey("engine_buffer_slots_used" + labels), series::toString);
        // idle workers wait in select: their idle time grows, in seconds
        final double idle = Double.parseDouble(series.get("engine_worker_idle_seconds_total" + labels));
        Thread.sleep(300);
        final double later = Double.parseDouble(scrape(metricsPort).get("engine_worker_idle_seconds_total" + labels));
        assertTrue(later > idle && later - idle < 10.0, idle + " then " + later);
        assertLintFree(metricsPort);
    }

    private void awaitEvent(String name, String detail) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline)
        {
            if (engine.events().stream().anyMatch(event -> event.event().equals(name) && event.detail().endsWith(detail)))
            {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no " + name + " ending " + detail + " in " + engine.events());
    }

    @Test
    void shouldAnswerNotFoundElsewhere() throws Exception
    {
        final int metricsPort = FreePorts.next();
        engine.startText("zilla.yaml", yaml(FreePorts.next(), metricsPort));

        final HttpResponse<String> response = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + metricsPort + "/other")).build(), HttpResponse.BodyHandlers.ofString());

        assertEquals(404, response.statusCode());
    }

    @Test
    void shouldFailTheStartWhenThePortIsInUse() throws Exception
    {
        try (ServerSocket taken = new ServerSocket(FreePorts.next(), 1, InetAddress.getLoopbackAddress()))
        {
            final int port = FreePorts.next();
            final IllegalStateException ex = assertThrows(IllegalStateException.class,
                () -> engine.startText("zilla.yaml", yaml(port, taken.getLocalPort())));

            assertTrue(ex.getMessage().startsWith("zilla could not start: exporter "
                + "prometheus_metric_exporter http://0.0.0.0:" + taken.getLocalPort() + "/metrics: cannot listen on port "
                + taken.getLocalPort()), ex.getMessage());
            // nothing was left listening: the tcp server's port is free again
            try (ServerSocket free = new ServerSocket(port, 1, InetAddress.getLoopbackAddress()))
            {
                assertEquals(port, free.getLocalPort());
            }
        }
    }

    /** Each series of a text-format scrape, name with labels to value. */
    private static String yaml(int port, int metricsPort)
    {
        return """
            name: example
            telemetry:
              attributes:
                service.namespace: demo
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
              net:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %d
                telemetry:
                  metrics:
                    - stream.opens.*
                    - stream.closes.*
                    - stream.data.*
                    - stream.active.*
                exit: app
              app:
                type: echo
                kind: server
            """.formatted(metricsPort, port);
    }
}
