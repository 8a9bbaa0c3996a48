/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import static io.zilla.bindings.sse.stream.SsePeers.WHOLE;
import static io.zilla.bindings.sse.stream.SsePeers.app;
import static io.zilla.bindings.sse.stream.SsePeers.awaitStream;
import static io.zilla.bindings.sse.stream.SsePeers.beginEx;
import static io.zilla.bindings.sse.stream.SsePeers.challengeEx;
import static io.zilla.bindings.sse.stream.SsePeers.curl;
import static io.zilla.bindings.sse.stream.SsePeers.dataEx;
import static io.zilla.bindings.sse.stream.SsePeers.endEx;
import static io.zilla.bindings.sse.stream.SsePeers.resetEx;
import static io.zilla.bindings.sse.stream.SsePeers.utf8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import io.zilla.bindings.sse.stream.SsePeers.Curl;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * tcp -> http -> sse server -> the test binding, which plays the mapping: it sees each subscription's SseBeginEx and
 * answers with events, ends and resets; curl (HTTP/1.1 and h2c) and the JDK's HttpClient read the event streams.
 */
class SseServerTest
{
    private static final String EVENTS = "retry: 1500\n\n"
        + "id: 1\ndata: hello\n\n"
        + "id: 2\nevent: update\ndata: a\ndata: b\ndata: c\ndata: d\ndata: \ndata:  e\n\n"
        + "data: \n\n"
        + "id: 9\n\n";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(SseServerTest.class);

    @Test
    void shouldStreamEventsOverHttp11() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        try (Curl curl = curl("-H", "Last-Event-ID: 7", "http://127.0.0.1:" + port + "/events/items"))
        {
            final TestStream stream = awaitStream(0);
            assertArrayEquals(new String[] {"http", "127.0.0.1:" + port, "/events/items", "7"}, beginEx(stream));
            sendEvents(stream);
            assertEquals(EVENTS, curl.awaitExit());
            assertEquals(0, curl.exitValue());
        }
        // the sse.* metrics the binding selects: three events (the end's id is not one), a stream that resumed from 7
        awaitMetric("sse.active.streams", 0L);
        assertEquals(3L, metric("sse.events"));
        assertEquals(1L, metric("sse.resumes"));
    }

    private long metric(String name) throws Exception
    {
        return EngineCounters.read(engine.directory()).getOrDefault("sse", Map.of()).getOrDefault(name, -1L);
    }

    private void awaitMetric(String name, long value) throws Exception
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (metric(name) != value && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertEquals(value, metric(name), name);
    }

    @Test
    void shouldStreamEventsOverH2c() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        try (Curl curl = curl("--http2-prior-knowledge", "http://127.0.0.1:" + port + "/events/items?lastEventId=a%2Fb%20c"))
        {
            final TestStream stream = awaitStream(0);
            assertArrayEquals(new String[] {"http", "127.0.0.1:" + port, "/events/items?lastEventId=a%2Fb%20c", "a/b c"},
                beginEx(stream));
            sendEvents(stream);
            assertEquals(EVENTS, curl.awaitExit());
            assertEquals(0, curl.exitValue());
        }
    }

    @Test
    void shouldJoinTheFragmentsOfAnEvent() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        try (Curl curl = curl("http://127.0.0.1:" + port + "/all"))
        {
            final TestStream stream = awaitStream(0);
            // INIT with the extension, a middle fragment, FIN: a CR ending one and an LF starting the next are one break
            app().send(stream, utf8("part1\r"), dataEx("f", "frag"), 0x02);
            app().send(stream, utf8("\nx"), null, 0x00);
            app().send(stream, utf8("y"), null, 0x01);
            app().end(stream, null);
            assertEquals("retry: 1500\n\nid: f\nevent: frag\ndata: part1\ndata: xy\n\n", curl.awaitExit());
        }
    }

    @Test
    void shouldSendTheEventStreamHead() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        try (Curl curl = curl("-i", "http://127.0.0.1:" + port + "/all"))
        {
            final TestStream stream = awaitStream(0);
            app().end(stream, null);
            final String output = curl.awaitExit().replace("\r\n", "\n");
            assertTrue(output.startsWith("HTTP/1.1 200 OK\n"), output);
            assertTrue(output.contains("\ncontent-type: text/event-stream\n"), output);
            assertTrue(output.contains("\ncache-control: no-cache\n"), output);
            assertTrue(output.endsWith("\n\nretry: 1500\n\n"), output);
        }
    }

    @Test
    void shouldStreamToTheJdkHttpClient() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final HttpResponse<Stream<String>> response = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
            + port + "/events/a")).header("accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, response.statusCode());
        assertEquals("text/event-stream", response.headers().firstValue("content-type").orElse(null));
        final TestStream stream = awaitStream(0);
        sendEvents(stream);
        assertEquals(List.of(EVENTS.split("\n", -1)).subList(0, EVENTS.split("\n", -1).length - 1),
            response.body().toList());
    }

    @Test
    void shouldRefuseOtherMethodsPathsAndLongIds() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final String base = "http://127.0.0.1:" + port;
        final HttpResponse<String> post = client.send(HttpRequest.newBuilder(URI.create(base + "/events/a"))
            .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
        assertEquals("GET", post.headers().firstValue("allow").orElse(null));
        final HttpResponse<String> missing = client.send(HttpRequest.newBuilder(URI.create(base + "/nothing")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(404, missing.statusCode());
        final HttpResponse<String> nested = client.send(HttpRequest.newBuilder(URI.create(base + "/events/a/b")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(404, nested.statusCode());
        final HttpResponse<String> longHeader = client.send(HttpRequest.newBuilder(URI.create(base + "/events/a"))
            .header("Last-Event-ID", "x".repeat(65)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, longHeader.statusCode());
        final HttpResponse<String> longQuery = client.send(HttpRequest.newBuilder(URI.create(base + "/events/a?lastEventId="
            + "%41".repeat(65))).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, longQuery.statusCode());
        try (Curl badQuery = curl("-o", "/dev/null", "-w", "%{http_code}", base + "/events/a?lastEventId=%4"))
        {
            assertEquals("400", badQuery.awaitExit());
        }
        // none of them reached the exit; an id of the limit's length does
        assertTrue(app().streams().isEmpty());
        try (Curl curl = curl("-H", "Last-Event-ID: " + "x".repeat(64), base + "/events/a?lastEventId=ignored"))
        {
            assertEquals("x".repeat(64), beginEx(awaitStream(0))[3]);
        }
        try (Curl curl = curl(base + "/events/b?x=1&lastEventId="))
        {
            assertEquals(null, beginEx(awaitStream(1))[3]);
        }
        try (Curl curl = curl(base + "/events/c?x=1&lastEventId=%41b+c&lastEventId=2"))
        {
            assertEquals("Ab+c", beginEx(awaitStream(2))[3]);
        }
    }

    @Test
    void shouldAnswerAnExitResetBeforeItsReplyWithAnError() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        app().beginOnOpen(false);
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final var first = client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/events/a"))
            .build(), HttpResponse.BodyHandlers.ofString());
        app().reset(awaitStream(0), null);
        assertEquals(503, first.get().statusCode());
        final var second = client.sendAsync(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/events/b"))
            .build(), HttpResponse.BodyHandlers.ofString());
        app().reset(awaitStream(1), resetEx(404));
        assertEquals(404, second.get().statusCode());
    }

    @Test
    void shouldWriteKeepAliveCommentsOnAnIdleStream() throws Exception
    {
        final int port = SsePeers.start(engine, 200);
        try (Curl curl = curl("http://127.0.0.1:" + port + "/all"))
        {
            final TestStream stream = awaitStream(0);
            curl.awaitOutput("retry: 1500\n\n:\n:\n");
            app().send(stream, utf8("x"), dataEx(null, null), WHOLE);
            curl.awaitOutput("data: x\n\n:\n");
            app().end(stream, null);
            final String output = curl.awaitExit();
            assertTrue(output.matches("retry: 1500\n\n(:\n){2,}data: x\n\n(:\n)+"), output.replace("\n", "\\n"));
        }
    }

    @Test
    void shouldWriteAChallengeEvent() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        try (Curl curl = curl("http://127.0.0.1:" + port + "/all"))
        {
            final TestStream stream = awaitStream(0);
            app().challenge(stream, challengeEx("{\"method\":\"POST\"}"));
            app().end(stream, null);
            assertEquals("retry: 1500\n\nevent: challenge\ndata: {\"method\":\"POST\"}\n\n", curl.awaitExit());
        }
    }

    @Test
    void shouldAbortTheExitWhenTheClientGoes() throws Exception
    {
        // an HTTP/1.1 client that closes its connection is seen when a write to it fails: a keep-alive comment's, here
        final int port = SsePeers.start(engine, 200);
        final TestStream stream;
        try (Curl curl = curl("http://127.0.0.1:" + port + "/all"))
        {
            stream = awaitStream(0);
            curl.awaitOutput("retry: 1500\n\n");
            assertEquals(1L, metric("sse.active.streams"));
        }
        stream.await(Duration.ofSeconds(10), () -> stream.aborted() && stream.reset());
        awaitMetric("sse.active.streams", 0L);
        assertEquals(0L, metric("sse.resumes"));
    }

    @Test
    void shouldAbortTheExitWhenAnH2ClientGoes() throws Exception
    {
        // as over HTTP/1.1: the http binding sees the connection's end at the next write, a keep-alive comment's here
        final int port = SsePeers.start(engine, 200);
        final TestStream stream;
        try (Curl curl = curl("--http2-prior-knowledge", "http://127.0.0.1:" + port + "/all"))
        {
            stream = awaitStream(0);
            curl.awaitOutput("retry: 1500\n\n");
            assertEquals(1L, metric("sse.active.streams"));
        }
        stream.await(Duration.ofSeconds(10), () -> stream.aborted() && stream.reset());
        awaitMetric("sse.active.streams", 0L);
        assertEquals(0L, metric("sse.resumes"));
    }

    @Test
    void shouldAbortTheResponseWhenTheExitAborts() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        try (Curl curl = curl("http://127.0.0.1:" + port + "/all"))
        {
            final TestStream stream = awaitStream(0);
            app().send(stream, utf8("x"), null, WHOLE);
            curl.awaitOutput("data: x\n\n");
            app().abort(stream);
            assertEquals("retry: 1500\n\ndata: x\n\n", curl.awaitExit());
            // curl saw the chunked body end without its last chunk
            assertTrue(curl.exitValue() != 0);
        }
    }

    @Test
    void shouldStreamToManyStreamsOnOneH2Connection() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        final int count = 100;
        // nghttp sends every request on one HTTP/2 connection (prior knowledge for http://)
        final List<String> args = new ArrayList<>(List.of("nghttp", "-t", "20"));
        for (int i = 0; i < count; i++)
        {
            args.add("http://127.0.0.1:" + port + "/events/s" + i);
        }
        try (Curl nghttp = SsePeers.process(args))
        {
            for (int i = 0; i < count; i++)
            {
                awaitStream(i);
            }
            for (TestStream stream : app().streams())
            {
                final String topic = beginEx(stream)[2].substring("/events/".length());
                app().send(stream, utf8(topic), dataEx(topic, null), WHOLE);
                app().end(stream, null);
            }
            final String output = nghttp.awaitExit();
            assertEquals(0, nghttp.exitValue(), output);
            for (int i = 0; i < count; i++)
            {
                assertTrue(output.contains("id: s" + i + "\ndata: s" + i + "\n\n"), "stream " + i + ": " + output);
            }
            assertEquals(count, output.split("retry: 1500\n\n", -1).length - 1, output);
        }
    }

    @Test
    void shouldNotLetAStalledClientSlowAnother() throws Exception
    {
        final int port = SsePeers.start(engine, 0);
        final byte[] payload = "y".repeat(1000).getBytes(StandardCharsets.US_ASCII);
        final int events = 3000;
        try (java.net.Socket stalled = new java.net.Socket())
        {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new java.net.InetSocketAddress("127.0.0.1", port));
            stalled.getOutputStream().write(utf8("GET /events/slow HTTP/1.1\r\nHost: localhost\r\n\r\n"));
            final TestStream slow = awaitStream(0);
            for (int i = 0; i < events; i++)
            {
                app().send(slow, payload, null, WHOLE);
            }
            try (Curl curl = curl("http://127.0.0.1:" + port + "/events/fast"))
            {
                final TestStream fast = awaitStream(1);
                for (int i = 0; i < 100; i++)
                {
                    app().send(fast, utf8("e" + i), null, WHOLE);
                }
                app().end(fast, null);
                final String output = curl.awaitExit();
                assertTrue(output.endsWith("data: e99\n\n"), output);
            }
            // the stalled client's stream stopped at what zilla and the sockets hold: its events wait in the test binding
            // settled: the same for three readings in a row (a busy machine may pause the worker for one)
            long sent = slow.sequence();
            for (int i = 0, stable = 0; i < 100 && stable < 3; i++)
            {
                SsePeers.sleep(200);
                final long now = slow.sequence();
                stable = now == sent ? stable + 1 : 0;
                sent = now;
            }
            SsePeers.sleep(300);
            assertEquals(sent, slow.sequence(), "the stalled stream's exit kept getting credit");
            System.out.printf("a stalled client's exit sent %d bytes before its credit stopped%n", sent);
            assertTrue(slow.waiting() > 0, "every event went out to a client that reads nothing");
            // from the exit's view: its credit is the http reply's window at most (a slot), none of it unacknowledged
            // beyond that, and each event pays the framing padding
            assertTrue(slow.maximum() > 0 && slow.maximum() <= 64 * 1024, "maximum " + slow.maximum());
            assertTrue(slow.sequence() - slow.acknowledged() <= slow.maximum(), "in flight beyond the maximum");
            assertTrue(slow.padding() >= SseServerStream.FRAMING_PADDING, "padding " + slow.padding());
            final long bound = 8L * 1024 * 1024;
            assertTrue(sent < bound, "the stalled stream took " + sent + " bytes");
            // once it reads, everything arrives, in order
            final BufferedReader reader = new BufferedReader(new InputStreamReader(stalled.getInputStream(),
                StandardCharsets.US_ASCII));
            int received = 0;
            String line;
            while (received < events && (line = reader.readLine()) != null)
            {
                if (line.endsWith(new String(payload, StandardCharsets.US_ASCII)))
                {
                    received++;
                }
            }
            assertEquals(events, received);
        }
    }

    private static void sendEvents(TestStream stream)
    {
        app().send(stream, utf8("hello"), dataEx("1", null), WHOLE);
        app().send(stream, utf8("a\nb\r\nc\rd\n\n e"), dataEx("2", "update"), WHOLE);
        app().send(stream, new byte[0], dataEx(null, null), WHOLE);
        app().end(stream, endEx("9"));
    }
}
