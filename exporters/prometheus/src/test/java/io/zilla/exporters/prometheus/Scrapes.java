/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/** The tests' scrapes of a prometheus endpoint on 127.0.0.1: its series, awaited values, promtool's verdict. */
final class Scrapes
{
    private static final HttpClient CLIENT = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private Scrapes()
    {
    }

    /** Scrapes until the series has the value, within 20 s; returns that scrape. */
    static Map<String, String> awaitSeries(int metricsPort, String name, String value) throws Exception
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        Map<String, String> series = Map.of();
        while (System.nanoTime() < deadline)
        {
            series = scrape(metricsPort);
            if (value.equals(series.get(name)))
            {
                return series;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("no " + name + " " + value + " in " + series);
    }

    /** Each series of a text-format scrape, name with labels to value. */
    static Map<String, String> scrape(int metricsPort) throws IOException, InterruptedException
    {
        final HttpResponse<String> response = get(metricsPort);
        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.headers().firstValue("content-type").orElse("").startsWith("text/plain"));
        final Map<String, String> series = new TreeMap<>();
        for (String line : response.body().split("\n"))
        {
            if (!line.isEmpty() && !line.startsWith("#"))
            {
                final int space = line.lastIndexOf(' ');
                series.put(line.substring(0, space), line.substring(space + 1));
            }
        }
        return series;
    }

    /** Prometheus' own linter (promtool, Debian's prometheus package: .ci/run installs it) finds nothing to say. */
    static void assertLintFree(int metricsPort) throws Exception
    {
        final String body = get(metricsPort).body();
        final Process promtool = new ProcessBuilder("/usr/bin/promtool", "check", "metrics")
            .redirectErrorStream(true)
            .start();
        try (OutputStream in = promtool.getOutputStream())
        {
            in.write(body.getBytes(StandardCharsets.UTF_8));
        }
        final String output = new String(promtool.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(promtool.waitFor(30, TimeUnit.SECONDS), "promtool did not finish");
        assertEquals(0, promtool.exitValue(), output);
        assertEquals("", output.trim(), output);
    }

    private static HttpResponse<String> get(int metricsPort) throws IOException, InterruptedException
    {
        return CLIENT.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString());
    }
}
