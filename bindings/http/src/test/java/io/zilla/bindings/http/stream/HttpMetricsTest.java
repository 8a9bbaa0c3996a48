/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.connect;
import static io.zilla.bindings.http.stream.HttpPeers.freePort;
import static io.zilla.bindings.http.stream.HttpPeers.read;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;

import io.zilla.engine.EngineCounters;
import io.zilla.engine.EngineHistograms;
import io.zilla.engine.metrics.Buckets;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The http.* metrics of a server binding, read from the engine directory as exporters read them: exactly the requests
 * that reached the exit, their body sizes in the right buckets, and no request left active, whether it ended well or
 * its client went away in the middle of it.
 */
class HttpMetricsTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpMetricsTest.class);

    @Test
    void shouldRecordEveryRequestThatReachedTheExit() throws Exception
    {
        final int port = freePort();
        engine.env("PORT", Integer.toString(port)).start("metrics.yaml");
        final String body = "x".repeat(100);
        try (Socket socket = connect(port))
        {
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            for (int i = 0; i < 4; i++)
            {
                out.write(ascii("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n" + body));
                assertEquals(body, read(in, false).text());
            }
            // no route: answered by zilla, not counted
            out.write(ascii("GET /other HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            assertEquals(404, read(in, false).status());
            out.write(ascii("GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            assertEquals("", read(in, false).text());
        }

        final EngineHistograms.Values size = awaitCount("http.request.size", 5);
        // 100 bytes: above 64, at most 128; a GET's empty body: in the first
        final long[] counts = new long[Buckets.SIZES.count()];
        counts[0] = 1;
        counts[1] = 4;
        assertArrayEquals(counts, size.counts());
        assertEquals(400, size.sum());
        assertEquals(400, histograms().get("http.response.size").sum());
        final EngineHistograms.Values duration = histograms().get("http.duration");
        assertEquals(5, duration.count());
        assertTrue(duration.sum() > 0);
        assertEquals(0L, counter("http.active.requests"));
    }

    @Test
    void shouldEndTheRequestOfAClientThatWentAway() throws Exception
    {
        final int port = freePort();
        engine.env("PORT", Integer.toString(port)).start("metrics.yaml");
        try (Socket socket = connect(port))
        {
            // 10 of the 100 bytes it said, then gone
            socket.getOutputStream().write(ascii("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n"
                + "0123456789"));
            socket.getOutputStream().flush();
            awaitCounter("http.active.requests", 1L);
        }

        final EngineHistograms.Values size = awaitCount("http.request.size", 1);
        assertEquals(10, size.sum());
        awaitCounter("http.active.requests", 0L);
    }

    @Test
    void shouldLabelTheHistogramsWithTheAttributes() throws Exception
    {
        final int port = freePort();
        engine.env("PORT", Integer.toString(port)).start("metrics-attributes.yaml");
        try (Socket socket = connect(port))
        {
            final OutputStream out = socket.getOutputStream();
            final InputStream in = socket.getInputStream();
            for (int i = 0; i < 3; i++)
            {
                out.write(ascii("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello"));
                assertEquals("hello", read(in, false).text());
            }
            out.write(ascii("GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            assertEquals(200, read(in, false).status());
            // a method of no label value of its own: _other, so that what clients send cannot add series
            out.write(ascii("PROPFIND /echo HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            assertEquals(200, read(in, false).status());
        }

        final EngineHistograms.Values posts = awaitCount("http.request.size{method=POST,status=200}", 3);
        assertEquals(15, posts.sum());
        assertEquals(1, awaitCount("http.duration{method=GET,status=200}", 1).count());
        assertEquals(1, awaitCount("http.response.size{method=_other,status=200}", 1).count());
        // every series is labelled: none without the attributes
        assertEquals(null, histograms().get("http.duration"));
        assertEquals(9, histograms().size());
        assertEquals(0L, counter("http.active.requests"));
    }

    private EngineHistograms.Values awaitCount(String metric, long count) throws Exception
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        EngineHistograms.Values values = null;
        while (System.nanoTime() < deadline)
        {
            values = histograms().get(metric);
            if (values != null && values.count() == count)
            {
                return values;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(metric + ": " + count + " observations expected, " + values);
    }

    private void awaitCounter(String metric, long value) throws Exception
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        long seen = -1;
        while (System.nanoTime() < deadline)
        {
            seen = counter(metric);
            if (seen == value)
            {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError(metric + ": " + value + " expected, " + seen);
    }

    private Map<String, EngineHistograms.Values> histograms() throws Exception
    {
        return EngineHistograms.read(engine.directory()).getOrDefault("http", Map.of());
    }

    private long counter(String metric) throws Exception
    {
        return EngineCounters.read(engine.directory()).getOrDefault("http", Map.of()).getOrDefault(metric, -1L);
    }

    private static byte[] ascii(String text)
    {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
