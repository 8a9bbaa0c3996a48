/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpServerClientsTest.curl;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.http.stream.HttpServerClientsTest.Curl;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The http server over HTTP/2 with real clients: curl (h2c prior knowledge, h2 over TLS), the JDK HttpClient, nghttp. */
class Http2ServerClientsTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2ServerClientsTest.class);

    @TempDir
    Path directory;

    private Http2Peers.Ports ports;

    @BeforeEach
    void start() throws Exception
    {
        ports = Http2Peers.start(engine, 100);
    }

    @Test
    void shouldGetWithPriorKnowledge() throws Exception
    {
        final Curl curl = curl("--http2-prior-knowledge", "-i", ports.http() + "/echo");
        assertEquals(0, curl.exit(), curl.err());
        assertTrue(curl.out().startsWith("HTTP/2 200"), curl.out());
    }

    @Test
    void shouldPostWithPriorKnowledge() throws Exception
    {
        final Curl curl = curl("--http2-prior-knowledge", "--data-binary", "hello, zilla", ports.http() + "/echo");
        assertEquals(0, curl.exit(), curl.err());
        assertEquals("hello, zilla", curl.out());
    }

    @Test
    void shouldAnswerMissingWith404() throws Exception
    {
        final Curl curl = curl("--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_code} %{http_version}",
            ports.http() + "/missing");
        assertEquals(0, curl.exit(), curl.err());
        assertEquals("404 2", curl.out());
    }

    @Test
    void shouldMultiplexUrlsOnOneConnection() throws Exception
    {
        // curl 7.88 cannot reuse a prior-knowledge connection (curl issue 10634), so curl multiplexes over TLS here
        final Curl curl = curl("--http2", "-k", "-v", "-Z", "--parallel-max", "10",
            "-d", "one", ports.https() + "/echo/1", "-d", "two", ports.https() + "/echo/2",
            "-d", "three", ports.https() + "/echo/3", "-d", "four", ports.https() + "/echo/4");
        assertEquals(0, curl.exit(), curl.err());
        assertTrue(curl.err().contains("Multiplexed connection found") || curl.err().contains("Re-using"), curl.err());
        assertEquals(1, curl.err().split("Connected to", -1).length - 1, curl.err());
        assertEquals("one&two&three&four".repeat(4), curl.out());

        // and nghttp over h2c: three requests at once on one connection
        final Path file = file(100_000);
        final Http2Peers.Result nghttp = Http2Peers.run(List.of("nghttp", "-n", "-s", "-d", file.toString(),
            ports.http() + "/echo/1", ports.http() + "/echo/2", ports.http() + "/echo/3"));
        assertEquals(0, nghttp.exit(), nghttp.err() + nghttp.out());
        assertEquals(3, countResponses(nghttp.out()), nghttp.out());
    }

    private static int countResponses(String stats)
    {
        int count = 0;
        for (String line : stats.split("\n"))
        {
            if (line.contains("/echo/"))
            {
                count++;
            }
        }
        return count;
    }

    @Test
    void shouldUploadAndDownloadLargeBodiesWithPriorKnowledge() throws Exception
    {
        final Path file = file(5 * 1024 * 1024);
        final Curl curl = curl("--http2-prior-knowledge", "--data-binary", "@" + file, "-o",
            directory.resolve("out").toString(), ports.http() + "/echo");
        // the engine's events say why, should the connection end early (seen once in a full build on a busy host)
        assertEquals(0, curl.exit(), () -> curl.err() + " events: " + engine.events());
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(directory.resolve("out")));
    }

    @Test
    void shouldGetOverTlsWithAlpn() throws Exception
    {
        final Curl curl = curl("--http2", "-k", "-i", "--data-binary", "over tls", ports.https() + "/echo");
        assertEquals(0, curl.exit(), curl.err());
        assertTrue(curl.out().startsWith("HTTP/2 200"), curl.out());
        assertTrue(curl.out().endsWith("over tls"), curl.out());

        final Curl http11 = curl("--http1.1", "-k", "-i", ports.https() + "/echo");
        assertEquals(0, http11.exit(), http11.err());
        assertTrue(http11.out().startsWith("HTTP/1.1 200"), http11.out());
    }

    @Test
    void shouldExchangeLargeBodiesWithJdkHttpClientOverTls() throws Exception
    {
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
            .sslContext(Http2Peers.trustingContext()).connectTimeout(Duration.ofSeconds(10)).build();
        final byte[] body = new byte[6 * 1024 * 1024];
        new Random(11).nextBytes(body);
        final HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(ports.https() + "/echo"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, response.version());
        assertArrayEquals(body, response.body());

        final List<CompletableFuture<HttpResponse<String>>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++)
        {
            calls.add(client.sendAsync(HttpRequest.newBuilder(URI.create(ports.https() + "/echo/" + i))
                .POST(HttpRequest.BodyPublishers.ofString("request-" + i)).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < calls.size(); i++)
        {
            final HttpResponse<String> each = calls.get(i).get(60, TimeUnit.SECONDS);
            assertEquals(HttpClient.Version.HTTP_2, each.version());
            assertEquals("request-" + i, each.body());
        }

        final HttpResponse<String> missing = client.send(HttpRequest.newBuilder(URI.create(ports.https() + "/missing"))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, missing.statusCode());
    }

    @Test
    void shouldUpgradeFromHttp11WithCurl() throws Exception
    {
        final Curl curl = curl("--http2", "-i", ports.http() + "/echo");
        assertEquals(0, curl.exit(), curl.err());
        assertTrue(curl.out().startsWith("HTTP/1.1 101 Switching Protocols\r\n"), curl.out());
        assertTrue(curl.out().contains("\r\n\r\nHTTP/2 200"), curl.out());

        // a request with a body is not upgraded: HTTP/1.1 answers it
        final Curl post = curl("--http2", "-i", "--data-binary", "no upgrade", ports.http() + "/echo");
        assertEquals(0, post.exit(), post.err());
        assertTrue(post.out().startsWith("HTTP/1.1 200 OK"), post.out());
        assertTrue(post.out().endsWith("no upgrade"), post.out());
    }

    @Test
    void shouldUpgradeFromHttp11WithJdkHttpClient() throws Exception
    {
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
            .connectTimeout(Duration.ofSeconds(10)).build();
        final HttpResponse<String> get = client.send(HttpRequest.newBuilder(URI.create(ports.http() + "/echo")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, get.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, get.version());

        // the upgraded connection goes on with HTTP/2: 3 MiB both ways
        final byte[] body = new byte[3 * 1024 * 1024];
        new Random(13).nextBytes(body);
        final HttpResponse<byte[]> post = client.send(HttpRequest.newBuilder(URI.create(ports.http() + "/echo"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, post.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, post.version());
        assertArrayEquals(body, post.body());
    }

    @Test
    void shouldRespectSmallWindowsWithNghttp() throws Exception
    {
        // windows of 1,023 bytes per stream and 16,383 for the connection: every DATA frame waits for WINDOW_UPDATEs
        final Path file = file(2 * 1024 * 1024);
        final Http2Peers.Result result = Http2Peers.run(List.of("nghttp", "-w", "10", "-W", "14", "-d", file.toString(),
            ports.http() + "/echo"));
        assertEquals(0, result.exit(), result.err());
        assertArrayEquals(Files.readAllBytes(file), result.out().getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
    }

    @Test
    void shouldServeEveryRequestOfH2load() throws Exception
    {
        // a correctness check under concurrency (10 connections, 100 streams each at once), not a timed one
        final Http2Peers.Result gets = Http2Peers.run(List.of("h2load", "-n", "10000", "-c", "10", "-m", "100",
            ports.http() + "/echo"), 300);
        assertEquals(0, gets.exit(), gets.out() + gets.err());
        assertTrue(gets.out().contains("requests: 10000 total, 10000 started, 10000 done, 10000 succeeded, 0 failed, "
            + "0 errored, 0 timeout"), gets.out());
        assertTrue(gets.out().contains("status codes: 10000 2xx"), gets.out());

        final Path file = file(10_000);
        // uploads: 20 at once per connection (a stream whose application lags holds what it got early in a buffer
        // slot of its own: docs/bindings/http.md)
        final Http2Peers.Result posts = Http2Peers.run(List.of("h2load", "-n", "2000", "-c", "4", "-m", "20",
            "-d", file.toString(), ports.http() + "/echo"), 300);
        assertEquals(0, posts.exit(), posts.out() + posts.err());
        assertTrue(posts.out().contains("2000 succeeded, 0 failed, 0 errored, 0 timeout"), posts.out());
        // every response echoed its 10,000 bytes
        assertTrue(posts.out().contains("(20000000) data"), posts.out());
    }

    private Path file(int size) throws Exception
    {
        final byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        final Path file = directory.resolve("body-" + size);
        Files.write(file, bytes);
        return file;
    }
}
