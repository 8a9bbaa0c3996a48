/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Prometheus (Debian's, /usr/bin/prometheus: .ci/run installs it) scrapes the exporter, and its query API
 * answers with the exact counts of the connections driven through zilla.
 */
class PrometheusServerTest
{
    private static final Path PROMETHEUS = Path.of("/usr/bin/prometheus");
    private static final int CONNECTIONS = 2;
    private static final byte[] MESSAGE = "hello prometheus".getBytes(StandardCharsets.US_ASCII);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @TempDir
    Path temp;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void shouldBeScrapedByPrometheus() throws Exception
    {
        assertTrue(Files.isExecutable(PROMETHEUS), PROMETHEUS + " is missing: apt-get install -y prometheus (.ci/run does)");
        final int port = FreePorts.next();
        final int metricsPort = FreePorts.next();
        final int prometheusPort = FreePorts.next();
        engine.startText("zilla.yaml", """
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
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %d
                telemetry:
                  metrics:
                    - stream.*
                exit: app
              app:
                type: echo
                kind: server
            """.formatted(metricsPort, port));
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

        final Process prometheus = startPrometheus(metricsPort, prometheusPort);
        try
        {
            final String api = "http://127.0.0.1:" + prometheusPort;
            assertEquals("1", await(api, "up{job=\"zilla\"}", "1"));
            final String binding = "{job=\"zilla\",binding=\"net\",namespace=\"example\"}";
            assertEquals(String.valueOf(CONNECTIONS), await(api, "stream_closes_received_total" + binding,
                String.valueOf(CONNECTIONS)));
            assertEquals(String.valueOf(CONNECTIONS), query(api, "stream_opens_sent_total" + binding));
            assertEquals(String.valueOf(CONNECTIONS * MESSAGE.length), query(api, "stream_data_received_bytes_total" + binding));
            assertEquals("0", query(api, "stream_errors_received_total" + binding));
            assertEquals("0", query(api, "stream_active_received" + binding));
        }
        finally
        {
            stop(prometheus);
        }
    }

    @Test
    void shouldRunEveryPanelOfTheDashboard() throws Exception
    {
        assertTrue(Files.isExecutable(PROMETHEUS), PROMETHEUS + " is missing: apt-get install -y prometheus (.ci/run does)");
        final int port = FreePorts.next();
        final int metricsPort = FreePorts.next();
        final int prometheusPort = FreePorts.next();
        engine.startText("zilla.yaml", Files.readString(Path.of("..", "..", "examples", "http.metrics", "zilla.yaml"))
            .replace("7114", Integer.toString(port))
            .replace("7190", Integer.toString(metricsPort)));
        final Process prometheus = startPrometheus(metricsPort, prometheusPort);
        try
        {
            final String api = "http://127.0.0.1:" + prometheusPort;
            assertEquals("1", await(api, "up{job=\"zilla\"}", "1"));
            final HttpClient http11 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            // requests over more than one scrape, so that rate() has two samples with a difference
            for (int i = 0; i < 6; i++)
            {
                final HttpResponse<String> response = http11.send(HttpRequest.newBuilder(URI.create("http://localhost:"
                    + port + "/")).POST(HttpRequest.BodyPublishers.ofString("panel " + i)).build(),
                    HttpResponse.BodyHandlers.ofString());
                assertEquals("panel " + i, response.body());
                Thread.sleep(500);
            }
            await(api, "sum(http_duration_seconds_count)", "6");
            for (String expression : Dashboard.expressions())
            {
                // Prometheus parses and runs it: a typo in a function, a label or a range is an error status here
                final JsonNode answer = queryAnswer(api, Dashboard.resolved(expression));
                assertEquals("success", answer.path("status").asText(), expression + ": " + answer);
                if (expression.contains("http_"))
                {
                    assertFalse(answer.path("data").path("result").isEmpty(), "no result for " + expression);
                }
            }
        }
        finally
        {
            stop(prometheus);
        }
    }

    private Process startPrometheus(int metricsPort, int prometheusPort) throws IOException
    {
        final Path config = temp.resolve("prometheus.yml");
        Files.writeString(config, """
            global:
              scrape_interval: 1s
            scrape_configs:
              - job_name: zilla
                metrics_path: /metrics
                static_configs:
                  - targets: ['127.0.0.1:%d']
            """.formatted(metricsPort));
        return new ProcessBuilder(PROMETHEUS.toString(), "--config.file=" + config,
            "--storage.tsdb.path=" + temp.resolve("data"), "--web.listen-address=127.0.0.1:" + prometheusPort)
            .redirectErrorStream(true)
            .redirectOutput(temp.resolve("prometheus.log").toFile())
            .start();
    }

    private static void stop(Process prometheus) throws InterruptedException
    {
        prometheus.destroy();
        if (!prometheus.waitFor(10, TimeUnit.SECONDS))
        {
            prometheus.destroyForcibly();
        }
    }

    private JsonNode queryAnswer(String api, String expression) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/query?query="
            + URLEncoder.encode(expression, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        return mapper.readTree(response.body());
    }

    private String await(String api, String expression, String expected) throws Exception
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        String value = null;
        while (System.nanoTime() < deadline)
        {
            try
            {
                value = query(api, expression);
            }
            catch (IOException | AssertionError ex)
            {
                // Prometheus is not listening yet, or answers 503 while it starts
                value = ex.toString();
            }
            if (expected.equals(value))
            {
                return value;
            }
            Thread.sleep(200);
        }
        throw new AssertionError(expression + " is " + value + ", not " + expected + "; log: "
            + Files.readString(temp.resolve("prometheus.log")));
    }

    /** The value of an instant query with one result, or null when it has none. */
    private String query(String api, String expression) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(api + "/api/v1/query?query="
            + URLEncoder.encode(expression, StandardCharsets.UTF_8))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        final JsonNode result = mapper.readTree(response.body()).path("data").path("result");
        assertTrue(result.size() <= 1, response.body());
        return result.isEmpty() ? null : result.get(0).path("value").get(1).asText();
    }
}
