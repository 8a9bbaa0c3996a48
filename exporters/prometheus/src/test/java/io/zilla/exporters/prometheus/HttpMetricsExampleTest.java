/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import static io.zilla.exporters.prometheus.Scrapes.assertLintFree;
import static io.zilla.exporters.prometheus.Scrapes.awaitSeries;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * examples/http.metrics as shipped (on free ports instead of 7114 and 7190), driven by curl as its README says, over
 * HTTP/1.1 and h2c: the scrape counts exactly the requests that reached the echo, with their body sizes.
 */
class HttpMetricsExampleTest
{
    // tests run in the module directory
    private static final Path EXAMPLE = Path.of("..", "..", "examples", "http.metrics");
    private static final String HTTP = "{binding=\"north_http_server\",namespace=\"zilla-http-metrics\"}";
    private static final String TCP = "{binding=\"north_tcp_server\",namespace=\"zilla-http-metrics\"}";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldCountTheRequestsOfBothVersions() throws Exception
    {
        final int port = FreePorts.next();
        final int metricsPort = FreePorts.next();
        engine.startText("zilla.yaml", Files.readString(EXAMPLE.resolve("zilla.yaml"))
            .replace("7114", Integer.toString(port))
            .replace("7190", Integer.toString(metricsPort)));
        final String base = "http://localhost:" + port + "/";

        for (int i = 0; i < 3; i++)
        {
            assertEquals("Hello, world", curl("--http1.1", "-d", "Hello, world", base));
        }
        assertEquals("Hello, h2", curl("--http2-prior-knowledge", "-d", "Hello, h2", base));
        assertEquals("Hello, h2", curl("--http2-prior-knowledge", "-d", "Hello, h2", base));
        // answered by zilla itself: no exit, so not among http.*
        assertEquals("404", curl("--http1.1", "-o", "/dev/null", "-w", "%{http_code}",
            "http://127.0.0.1:" + port + "/"));

        final Map<String, String> series = awaitSeries(metricsPort, "http_duration_seconds_count" + HTTP, "5");
        final String inf = bucket("+Inf");
        assertEquals("5", series.get("http_duration_seconds_bucket" + inf), series::toString);
        assertTrue(Double.parseDouble(series.get("http_duration_seconds_sum" + HTTP)) > 0.0, series::toString);
        // echoed bodies: 3 x 12 bytes and 2 x 9, all under 64
        assertEquals("5", series.get("http_request_size_bytes_count" + HTTP), series::toString);
        assertEquals("54.0", series.get("http_request_size_bytes_sum" + HTTP), series::toString);
        assertEquals("5", series.get("http_request_size_bytes_bucket" + bucket("64.0")), series::toString);
        assertEquals("54.0", series.get("http_response_size_bytes_sum" + HTTP), series::toString);
        assertEquals("0.0", series.get("http_active_requests" + HTTP), series::toString);
        // the tcp binding's stream.* meets the namespace's two stream metrics: six connections, curl's each
        assertEquals("6.0", series.get("stream_opens_sent_total" + TCP), series::toString);
        assertFalse(series.containsKey("stream_data_sent_bytes_total" + TCP), series::toString);
        assertLintFree(metricsPort);
    }

    @Test
    void shouldLabelTheHistogramsByMethodAndStatus() throws Exception
    {
        final int port = FreePorts.next();
        final int metricsPort = FreePorts.next();
        final String attributes = """
                  metrics:
                    - http.*
                  attributes:
                    method: ${http.request.method}
                    status: ${http.response.status}
            """;
        final String yaml = Files.readString(EXAMPLE.resolve("zilla.yaml"))
            .replace("7114", Integer.toString(port))
            .replace("7190", Integer.toString(metricsPort))
            .replace("      metrics:\n        - http.*\n", attributes.indent(-4).indent(4));
        assertTrue(yaml.contains("method: ${http.request.method}"), yaml);
        engine.startText("zilla.yaml", yaml);
        final String base = "http://localhost:" + port + "/";

        assertEquals("Hello, world", curl("--http1.1", "-d", "Hello, world", base));
        assertEquals("Hello, h2", curl("--http2-prior-knowledge", "-d", "Hello, h2", base));
        assertEquals("", curl("--http2-prior-knowledge", base));

        final String post = "{binding=\"north_http_server\",method=\"POST\",namespace=\"zilla-http-metrics\",status=\"200\"}";
        final String get = "{binding=\"north_http_server\",method=\"GET\",namespace=\"zilla-http-metrics\",status=\"200\"}";
        final Map<String, String> series = awaitSeries(metricsPort, "http_duration_seconds_count" + get, "1");
        assertEquals("2", series.get("http_duration_seconds_count" + post), series::toString);
        assertEquals("21.0", series.get("http_request_size_bytes_sum" + post), series::toString);
        assertEquals("0.0", series.get("http_request_size_bytes_sum" + get), series::toString);
        // every series of the binding's histograms is labelled; its gauge is not
        assertFalse(series.containsKey("http_duration_seconds_count" + HTTP), series::toString);
        assertEquals("0.0", series.get("http_active_requests" + HTTP), series::toString);
        assertLintFree(metricsPort);
    }

    private static String bucket(String le)
    {
        return HTTP.substring(0, HTTP.length() - 1) + ",le=\"" + le + "\"}";
    }

    private static String curl(String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30"));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "curl did not finish");
        assertEquals(0, process.exitValue(), "curl " + String.join(" ", args));
        return out;
    }
}
