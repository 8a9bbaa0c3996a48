/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.awaitListening;
import static io.zilla.bindings.http.stream.HttpPeers.freePort;
import static io.zilla.bindings.http.stream.HttpServerClientsTest.curl;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.bindings.http.stream.HttpServerClientsTest.Curl;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The http client speaking HTTP/2 with prior knowledge ({@code versions: [ h2 ]}) to nghttpd (nghttp2's server, over
 * h2c), as the exit of an http server: curl (HTTP/1.1 and h2c in front), the JDK HttpClient, nghttp and h2load drive
 * the chain tcp server -> http server -> http client -> tcp client -> nghttpd.
 */
class Http2ClientTest
{
    private static final Pattern SUCCEEDED = Pattern.compile("requests: (\\d+) total, (\\d+) started, (\\d+) done, "
        + "(\\d+) succeeded, (\\d+) failed, (\\d+) errored");

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2ClientTest.class);

    @TempDir
    Path directory;

    private final List<Process> upstreams = new ArrayList<>();

    @AfterEach
    void stopUpstreams() throws Exception
    {
        for (Process upstream : upstreams)
        {
            upstream.destroy();
            upstream.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldProxyGetsAndUploadsOverOneConnection() throws Exception
    {
        final byte[] small = "hello over h2c\n".getBytes();
        final byte[] large = new byte[3 * 1024 * 1024 - 11];
        new Random(7).nextBytes(large);
        Files.write(directory.resolve("small.txt"), small);
        Files.write(directory.resolve("large.bin"), large);
        final String base = start(startUpstream("--echo-upload"));

        final Curl h2 = curl("--http2-prior-knowledge", base + "/small.txt");
        assertEquals(0, h2.exit(), h2.err());
        assertEquals("hello over h2c\n", h2.out());

        final Curl h1 = curl("--http1.1", "-o", directory.resolve("got").toString(), "-w", "%{http_code}",
            base + "/large.bin");
        assertEquals(0, h1.exit(), h1.err());
        assertEquals("200", h1.out());
        assertArrayEquals(large, Files.readAllBytes(directory.resolve("got")));

        final Curl h2large = curl("--http2-prior-knowledge", "-o", directory.resolve("got2").toString(), base + "/large.bin");
        assertEquals(0, h2large.exit(), h2large.err());
        assertArrayEquals(large, Files.readAllBytes(directory.resolve("got2")));

        final Curl missing = curl("--http2-prior-knowledge", "-o", "/dev/null", "-w", "%{http_code}", base + "/nothing");
        assertEquals("404", missing.out());

        final byte[] upload = new byte[1024 * 1024];
        new Random(9).nextBytes(upload);
        final Path file = directory.resolve("upload");
        Files.write(file, upload);
        final Curl post = curl("--http2-prior-knowledge", "--data-binary", "@" + file, "-o",
            directory.resolve("echoed").toString(), base + "/echo");
        assertEquals(0, post.exit(), post.err());
        assertArrayEquals(upload, Files.readAllBytes(directory.resolve("echoed")));

        final Curl chunked = curl("--http1.1", "-H", "Transfer-Encoding: chunked", "--data-binary", "@" + file, "-o",
            directory.resolve("echoed1").toString(), base + "/echo");
        assertEquals(0, chunked.exit(), chunked.err());
        assertArrayEquals(upload, Files.readAllBytes(directory.resolve("echoed1")));

        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final HttpResponse<byte[]> got = client.send(HttpRequest.newBuilder(URI.create(base + "/large.bin")).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, got.statusCode());
        assertArrayEquals(large, got.body());
        final HttpResponse<byte[]> echoed = client.send(HttpRequest.newBuilder(URI.create(base + "/echo"))
            .POST(HttpRequest.BodyPublishers.ofByteArray(upload)).build(), HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, echoed.statusCode());
        assertArrayEquals(upload, echoed.body());

        // HTTP/2 in front too, by Upgrade: h2c from the JDK client
        final HttpClient h2client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).build();
        final HttpResponse<byte[]> upgraded = h2client.send(HttpRequest.newBuilder(URI.create(base + "/large.bin")).build(),
            HttpResponse.BodyHandlers.ofByteArray());
        assertEquals(200, upgraded.statusCode());
        assertEquals(HttpClient.Version.HTTP_2, upgraded.version());
        assertArrayEquals(large, upgraded.body());

        // a chunked body with trailers: they go upstream as a last HEADERS frame with END_STREAM
        try (Socket socket = new Socket("127.0.0.1", Integer.parseInt(base.substring(base.lastIndexOf(':') + 1))))
        {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("POST /echo HTTP/1.1\r\nhost: localhost\r\ntransfer-encoding: chunked\r\n"
                + "connection: close\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\nx-checksum: 42\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            final String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            assertTrue(response.startsWith("HTTP/1.1 200"), response);
            assertTrue(response.contains("hello world"), response);
        }

        // one request after the other: every one went over the client's one HTTP/2 connection
        assertEquals(1, upstreamConnections());
    }

    @Test
    void shouldMultiplexManyConcurrentStreamsOnOneConnection() throws Exception
    {
        Files.write(directory.resolve("index.html"), new byte[4096]);
        final String base = start(startUpstream());
        // 10 connections with 50 streams each in front: 500 requests at once for nghttpd's 100 concurrent streams
        final Http2Peers.Result load = Http2Peers.run(List.of("h2load", "-n", "5000", "-c", "10", "-m", "50",
            base + "/index.html"), 120);
        assertAllSucceeded(load, 5000);
        assertEquals(1, upstreamConnections());
    }

    @Test
    void shouldRespectTheUpstreamsConcurrentStreamLimit() throws Exception
    {
        Files.write(directory.resolve("index.html"), new byte[20_000]);
        final String base = start(startUpstream("--max-concurrent-streams=3", "--echo-upload"));
        // a stream over the limit would be refused by nghttpd (RST_STREAM REFUSED_STREAM), failing its request
        final Http2Peers.Result load = Http2Peers.run(List.of("h2load", "-n", "600", "-c", "4", "-m", "20",
            base + "/index.html"), 120);
        assertAllSucceeded(load, 600);
        final Http2Peers.Result uploads = Http2Peers.run(List.of("h2load", "-n", "200", "-c", "2", "-m", "10", "-d",
            writeUpload(30_000).toString(), base + "/echo"), 120);
        assertAllSucceeded(uploads, 200);
        assertEquals(1, upstreamConnections());
    }

    @Test
    void shouldPassResponseTrailers() throws Exception
    {
        Files.write(directory.resolve("index.html"), "with trailers\n".getBytes());
        final String base = start(startUpstream("--trailer=x-checksum: abc123"));
        final Http2Peers.Result nghttp = Http2Peers.run(List.of("nghttp", "-v", base + "/index.html"), 60);
        assertEquals(0, nghttp.exit(), nghttp.err());
        assertTrue(nghttp.out().contains("with trailers"), nghttp.out());
        // the trailers come as a last HEADERS frame with END_STREAM, after the DATA
        final int data = nghttp.out().indexOf("recv DATA frame");
        final int trailer = nghttp.out().indexOf("x-checksum: abc123");
        assertTrue(data >= 0 && trailer > data, nghttp.out());
    }

    @Test
    void shouldFailTheStreamsOfAnUpstreamThatGoesAway() throws Exception
    {
        final byte[] large = new byte[64 * 1024 * 1024];
        Files.write(directory.resolve("large.bin"), large);
        Files.write(directory.resolve("small.txt"), "still here\n".getBytes());
        final int upstream = freePort();
        final Process first = startUpstream(upstream);
        final String base = start(upstream);
        // a slow download, cut short when the upstream dies in the middle of it
        final CompletableFuture<Curl> slow = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return curl("--http2-prior-knowledge", "--limit-rate", "1M", "-o", "/dev/null", base + "/large.bin");
            }
            catch (Exception ex)
            {
                throw new RuntimeException(ex);
            }
        });
        Thread.sleep(1500);
        first.destroyForcibly();
        first.waitFor(10, TimeUnit.SECONDS);
        final Curl cut = slow.get(60, TimeUnit.SECONDS);
        assertNotEquals(0, cut.exit(), cut.err());

        // a new upstream on the same port: the client opens a new connection and goes on
        startUpstream(upstream);
        final Curl next = curl("--http2-prior-knowledge", base + "/small.txt");
        assertEquals(0, next.exit(), next.err());
        assertEquals("still here\n", next.out());
        assertEquals(2, upstreamConnections());
    }

    /**
     * GOAWAY cannot be had from nghttpd on cue: a scripted upstream (a ServerSocket speaking the few frames it needs)
     * sends it with last stream id 0 in answer to the first request, whose stream the client then fails with
     * REFUSED_STREAM (a 502 in front); the next request goes over a new connection and is answered.
     */
    @Test
    void shouldTakeNoStreamOnAConnectionAfterGoaway() throws Exception
    {
        try (ServerSocket upstream = new ServerSocket(0, 4, InetAddress.getByName("127.0.0.1")))
        {
            upstream.setSoTimeout(20_000);
            final CompletableFuture<Void> script = CompletableFuture.runAsync(() ->
            {
                try
                {
                    try (Socket first = upstream.accept())
                    {
                        final int streamId = awaitHeaders(first);
                        // GOAWAY NO_ERROR, last stream id 0: stream 1 was not processed
                        writeFrame(first, 0x7, 0, 0, new byte[8]);
                        assertTrue(streamId > 0);
                        // the client ends the connection once no stream is left on it
                        first.setSoTimeout(10_000);
                        first.getInputStream().readAllBytes();
                    }
                    try (Socket second = upstream.accept())
                    {
                        final int streamId = awaitHeaders(second);
                        // HEADERS :status 200 (static index 8), then DATA "ok" with END_STREAM
                        writeFrame(second, 0x1, 0x4, streamId, new byte[] {(byte) 0x88});
                        writeFrame(second, 0x0, 0x1, streamId, "ok".getBytes(StandardCharsets.US_ASCII));
                        Thread.sleep(500);
                    }
                }
                catch (Exception ex)
                {
                    throw new RuntimeException(ex);
                }
            });
            final String base = start(upstream.getLocalPort());
            final Curl refused = curl("--http1.1", "-o", "/dev/null", "-w", "%{http_code}", base + "/first");
            assertEquals("502", refused.out(), refused.err());
            final Curl next = curl("--http1.1", base + "/second");
            assertEquals(0, next.exit(), next.err());
            assertEquals("ok", next.out());
            assertEquals(2, upstreamConnections());
            script.get(30, TimeUnit.SECONDS);
        }
    }

    /**
     * A connection error on a connection with a request waiting for a stream (the upstream allows one at a time): the
     * request that waited is failed with the others, never sent as a new stream ahead of the GOAWAY.
     */
    @Test
    void shouldSendNoWaitingRequestOnAConnectionInError() throws Exception
    {
        try (ServerSocket upstream = new ServerSocket(0, 4, InetAddress.getByName("127.0.0.1")))
        {
            upstream.setSoTimeout(20_000);
            final CompletableFuture<Void> waiting = new CompletableFuture<>();
            final CompletableFuture<List<Integer>> script = CompletableFuture.supplyAsync(() ->
            {
                try (Socket first = upstream.accept())
                {
                    // SETTINGS_MAX_CONCURRENT_STREAMS 1
                    writeFrame(first, 0x4, 0, 0, new byte[] {0, 3, 0, 0, 0, 1});
                    final int streamId = readToHeaders(first);
                    waiting.get(20, TimeUnit.SECONDS);
                    // DATA on a stream the client never opened: a connection error
                    writeFrame(first, 0x0, 0, streamId + 2, "x".getBytes(StandardCharsets.US_ASCII));
                    // the HEADERS the client sends before its GOAWAY
                    final List<Integer> headers = new ArrayList<>();
                    final DataInputStream in = new DataInputStream(first.getInputStream());
                    for (int type = -1; type != 0x7; )
                    {
                        final int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
                        type = in.readUnsignedByte();
                        in.readUnsignedByte();
                        final int id = in.readInt() & 0x7fff_ffff;
                        in.readFully(new byte[length]);
                        if (type == 0x1)
                        {
                            headers.add(id);
                        }
                    }
                    return headers;
                }
                catch (Exception ex)
                {
                    throw new RuntimeException(ex);
                }
            });
            final String base = start(upstream.getLocalPort());
            final List<CompletableFuture<Curl>> requests = new ArrayList<>();
            for (String path : List.of("/first", "/second"))
            {
                requests.add(CompletableFuture.supplyAsync(() ->
                {
                    try
                    {
                        return curl("--http1.1", "-o", "/dev/null", "-w", "%{http_code}", base + path);
                    }
                    catch (Exception ex)
                    {
                        throw new RuntimeException(ex);
                    }
                }));
            }
            // both requests reached the client: the second waits for the first's stream
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (EngineCounters.read(engine.directory()).get("north_http").get("requests") < 2
                && System.nanoTime() < deadline)
            {
                Thread.sleep(10);
            }
            Thread.sleep(200);
            waiting.complete(null);
            assertEquals(List.of(), script.get(30, TimeUnit.SECONDS), "HEADERS sent after the connection error");
            for (CompletableFuture<Curl> request : requests)
            {
                assertEquals("502", request.get(60, TimeUnit.SECONDS).out());
            }
        }
    }

    // the client's preface, then frames until a HEADERS, after our SETTINGS (the client waits for them); its stream id
    private static int awaitHeaders(Socket socket) throws Exception
    {
        writeFrame(socket, 0x4, 0, 0, new byte[0]);
        return readToHeaders(socket);
    }

    // the client's preface, then frames until a HEADERS (our SETTINGS written before); its stream id
    private static int readToHeaders(Socket socket) throws Exception
    {
        final DataInputStream in = new DataInputStream(socket.getInputStream());
        in.readFully(new byte[24]);
        while (true)
        {
            final int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
            final int type = in.readUnsignedByte();
            in.readUnsignedByte();
            final int streamId = in.readInt() & 0x7fff_ffff;
            in.readFully(new byte[length]);
            if (type == 0x1)
            {
                return streamId;
            }
        }
    }

    private static void writeFrame(Socket socket, int type, int flags, int streamId, byte[] payload) throws Exception
    {
        final ByteBuffer frame = ByteBuffer.allocate(9 + payload.length);
        frame.put((byte) (payload.length >>> 16)).putShort((short) payload.length).put((byte) type).put((byte) flags)
            .putInt(streamId).put(payload);
        socket.getOutputStream().write(frame.array());
        socket.getOutputStream().flush();
    }

    private Path writeUpload(int size) throws Exception
    {
        final byte[] upload = new byte[size];
        new Random(size).nextBytes(upload);
        final Path file = directory.resolve("upload-" + size);
        Files.write(file, upload);
        return file;
    }

    private static void assertAllSucceeded(Http2Peers.Result load, int requests)
    {
        final Matcher matcher = SUCCEEDED.matcher(load.out());
        assertTrue(matcher.find(), load.out() + load.err());
        assertEquals(requests, Integer.parseInt(matcher.group(4)), load.out());
        assertEquals(0, Integer.parseInt(matcher.group(5)), load.out());
        assertEquals(0, Integer.parseInt(matcher.group(6)), load.out());
    }

    private long upstreamConnections() throws Exception
    {
        return EngineCounters.read(engine.directory()).get("south_tcp").get("connections.opened");
    }

    private String start(int upstream) throws Exception
    {
        final int port = freePort();
        engine.env("PORT", Integer.toString(port))
            .env("UPSTREAM_PORT", Integer.toString(upstream))
            .start("h2client.yaml");
        return "http://127.0.0.1:" + port;
    }

    private int startUpstream(String... options) throws Exception
    {
        final int port = freePort();
        startUpstream(port, options);
        return port;
    }

    private Process startUpstream(int port, String... options) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("nghttpd", "--no-tls", "-a", "127.0.0.1", "-d",
            directory.toString()));
        command.addAll(List.of(options));
        command.add(Integer.toString(port));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        upstreams.add(process);
        awaitListening(port);
        return process;
    }
}
