/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.awaitListening;
import static io.zilla.bindings.http.stream.HttpPeers.freePort;
import static io.zilla.bindings.http.stream.HttpServerClientsTest.curl;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.http.stream.HttpServerClientsTest.Curl;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The http client, as the exit of an http server: requests proxied to an upstream HTTP/1.1 server (an http echo in
 * an engine of its own, or Python's http.server), with curl and the JDK HttpClient in front.
 */
class HttpClientTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpClientTest.class);

    // the http echo behind the proxy: an engine of its own, since a zilla refuses to connect to its own listeners
    @RegisterExtension
    final EngineExtension echoEngine = new EngineExtension().anchor(HttpClientTest.class);

    @TempDir
    Path directory;

    @Test
    void shouldProxyToAnHttpEcho() throws Exception
    {
        final int port = freePort();
        final int echo = freePort();
        echoEngine.env("ECHO_PORT", Integer.toString(echo)).start("upstream.yaml");
        engine.env("PORT", Integer.toString(port))
            .env("UPSTREAM_PORT", Integer.toString(echo))
            .env("CLIENT_HEADER_LIST_SIZE", "16384")
            .start("proxy.yaml");
        final String base = "http://127.0.0.1:" + port;

        final Curl post = curl("--http1.1", "--data-binary", "through the proxy", base + "/echo");
        assertEquals(0, post.exit(), post.err());
        assertEquals("through the proxy", post.out());

        final byte[] body = new byte[2 * 1024 * 1024];
        new Random(3).nextBytes(body);
        final Path file = directory.resolve("body");
        Files.write(file, body);
        final Curl chunked = curl("--http1.1", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file,
            "-o", directory.resolve("out").toString(), base + "/echo");
        assertEquals(0, chunked.exit(), chunked.err());
        assertArrayEquals(body, Files.readAllBytes(directory.resolve("out")));

        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final HttpResponse<byte[]> response = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(body)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, response.statusCode());
        assertArrayEquals(body, response.body());

        // one request after the other: the client reused its one connection to the upstream for all three
        final long opened = EngineCounters.read(engine.directory()).get("south_tcp").get("connections.opened");
        assertEquals(1, opened);
    }

    @Test
    void shouldRefuseAResponseHeadOverTheClientsHeaderListSize() throws Exception
    {
        try (ServerSocket upstream = new ServerSocket(0, 50, InetAddress.getLoopbackAddress()))
        {
            // answers /big with a 2 KB header, /garbage with no HTTP, anything else with a small head, request after request
            final Thread server = new Thread(() -> serveHeads(upstream), "upstream");
            server.setDaemon(true);
            server.start();
            final int port = freePort();
            engine.env("PORT", Integer.toString(port))
                .env("UPSTREAM_PORT", Integer.toString(upstream.getLocalPort()))
                .env("CLIENT_HEADER_LIST_SIZE", "1024")
                .start("proxy.yaml");
            final String base = "http://127.0.0.1:" + port;

            final Curl small = curl("--http1.1", "-s", "-w", " %{http_code}", base + "/small");
            assertEquals("ok 200", small.out(), small.err());
            // the response head over limits.header-list-size aborts the request: the server in front answers 502
            final Curl big = curl("--http1.1", "-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/big");
            assertEquals("502", big.out(), big.err());
            // so is a malformed response to a complete request (the server in front once waited for ever)
            final Curl garbage = curl("--http1.1", "-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/garbage");
            assertEquals("502", garbage.out(), garbage.err());
        }
    }

    private static void serveHeads(ServerSocket upstream)
    {
        while (!upstream.isClosed())
        {
            try (Socket socket = upstream.accept())
            {
                final BufferedReader in = new BufferedReader(new InputStreamReader(socket.getInputStream(),
                    StandardCharsets.ISO_8859_1));
                for (String line = in.readLine(); line != null; line = in.readLine())
                {
                    final boolean big = line.startsWith("GET /big ");
                    final boolean garbage = line.startsWith("GET /garbage ");
                    while (line != null && !line.isEmpty())
                    {
                        line = in.readLine();
                    }
                    final String head = garbage ? "NOT HTTP AT ALL\r\n\r\n" : "HTTP/1.1 200 OK\r\ncontent-length: 2\r\n"
                        + (big ? "x-big: " + "b".repeat(2000) + "\r\n" : "") + "\r\nok";
                    socket.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
                    socket.getOutputStream().flush();
                }
            }
            catch (IOException ex)
            {
                // the client went away, or the test ended
            }
        }
    }

    @Test
    void shouldProxyToPythonHttpServer() throws Exception
    {
        final byte[] content = new byte[1024 * 1024 + 7];
        new Random(5).nextBytes(content);
        Files.write(directory.resolve("file.bin"), content);
        final int upstream = freePort();
        final Process python = new ProcessBuilder("python3", "-m", "http.server", "--bind", "127.0.0.1",
            Integer.toString(upstream), "--directory", directory.toString()).redirectErrorStream(true).start();
        try
        {
            awaitListening(upstream);
            final int port = freePort();
            engine.env("PORT", Integer.toString(port))
                .env("UPSTREAM_PORT", Integer.toString(upstream))
                .env("CLIENT_HEADER_LIST_SIZE", "16384")
                .start("proxy.yaml");
            final String base = "http://127.0.0.1:" + port;

            final Curl get = curl("--http1.1", "-o", directory.resolve("got").toString(), "-w", "%{http_code}",
                base + "/file.bin");
            assertEquals(0, get.exit(), get.err());
            assertEquals("200", get.out());
            assertArrayEquals(content, Files.readAllBytes(directory.resolve("got")));

            final Curl missing = curl("--http1.1", "-o", "/dev/null", "-w", "%{http_code}", base + "/nothing.here");
            assertEquals("404", missing.out());

            final Curl head = curl("--http1.1", "-I", base + "/file.bin");
            assertEquals(0, head.exit(), head.err());
            assertTrue(head.out().toLowerCase().contains("content-length: " + content.length), head.out());
        }
        finally
        {
            python.destroy();
            python.waitFor(10, TimeUnit.SECONDS);
        }
    }
}
