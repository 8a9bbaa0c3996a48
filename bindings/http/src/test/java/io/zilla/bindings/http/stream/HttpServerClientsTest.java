/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The http server over HTTP/1.1 with real clients: curl and the JDK's HttpClient. */
class HttpServerClientsTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpServerClientsTest.class);

    @TempDir
    Path directory;

    private int port;
    private String base;

    @BeforeEach
    void start() throws Exception
    {
        port = HttpPeers.startServer(engine, 10000).http();
        base = "http://127.0.0.1:" + port;
    }

    @Test
    void shouldGetWithCurl() throws Exception
    {
        final Curl curl = curl("--http1.1", "-i", base + "/echo");
        assertEquals(0, curl.exit, curl.err);
        assertTrue(curl.out.startsWith("HTTP/1.1 200 OK\r\n"), curl.out);
    }

    @Test
    void shouldPostWithCurl() throws Exception
    {
        final Curl curl = curl("--http1.1", "--data-binary", "hello, zilla", base + "/echo");
        assertEquals(0, curl.exit, curl.err);
        assertEquals("hello, zilla", curl.out);
    }

    @Test
    void shouldUploadChunkedWithCurl() throws Exception
    {
        final Path file = file(300_000);
        final Curl curl = curl("--http1.1", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file,
            "-o", directory.resolve("out").toString(), base + "/echo");
        assertEquals(0, curl.exit, curl.err);
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(directory.resolve("out")));
    }

    @Test
    void shouldSendExpectContinueWithCurl() throws Exception
    {
        final Path file = file(4 * 1024 * 1024);
        final Curl curl = curl("--http1.1", "-v", "-H", "Expect: 100-continue", "--data-binary", "@" + file,
            "-o", directory.resolve("out").toString(), base + "/echo");
        assertEquals(0, curl.exit, curl.err);
        assertTrue(curl.err.contains("HTTP/1.1 100 Continue"), curl.err);
        assertArrayEquals(Files.readAllBytes(file), Files.readAllBytes(directory.resolve("out")));
    }

    @Test
    void shouldKeepAliveAcrossUrlsWithCurl() throws Exception
    {
        final Curl curl = curl("--http1.1", "-v", "-d", "one", base + "/echo/1", "-d", "two", base + "/echo/2",
            base + "/echo/3");
        assertEquals(0, curl.exit, curl.err);
        assertTrue(curl.err.contains("Re-using existing connection"), curl.err);
        assertEquals("one&twoone&two", curl.out.substring(0, 14), curl.out);
    }

    @Test
    void shouldExchangeWithJdkHttpClient() throws Exception
    {
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();
        final byte[] body = new byte[3 * 1024 * 1024];
        new Random(7).nextBytes(body);
        final HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertEquals(HttpClient.Version.HTTP_1_1, response.version());
        assertArrayEquals(body, response.body());

        final HttpResponse<String> missing = client.send(HttpRequest.newBuilder(URI.create(base + "/missing")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(404, missing.statusCode());
    }

    @Test
    void shouldServeManyConcurrentConnections() throws Exception
    {
        final List<CompletableFuture<Curl>> calls = new ArrayList<>();
        for (int i = 0; i < 50; i++)
        {
            final String data = "request-" + i;
            calls.add(CompletableFuture.supplyAsync(() -> curlUnchecked("--http1.1", "-d", data, base + "/echo")));
        }
        for (int i = 0; i < calls.size(); i++)
        {
            final Curl curl = calls.get(i).get(60, TimeUnit.SECONDS);
            assertEquals(0, curl.exit, curl.err);
            assertEquals("request-" + i, curl.out);
        }
    }

    private Path file(int size) throws Exception
    {
        final byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        final Path file = directory.resolve("body-" + size);
        Files.write(file, bytes);
        return file;
    }

    record Curl(int exit, String out, String err)
    {
    }

    private Curl curlUnchecked(String... args)
    {
        try
        {
            return curl(args);
        }
        catch (Exception ex)
        {
            throw new RuntimeException(ex);
        }
    }

    static Curl curl(String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30"));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).start();
        final CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return process.getErrorStream().readAllBytes();
            }
            catch (java.io.IOException ex)
            {
                throw new RuntimeException(ex);
            }
        });
        final String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS));
        return new Curl(process.exitValue(), out, new String(err.get(), StandardCharsets.ISO_8859_1));
    }
}
