/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.ENHANCE_YOUR_CALM;
import static io.zilla.bindings.http.stream.Http2RawClient.CONTINUATION;
import static io.zilla.bindings.http.stream.Http2RawClient.DATA;
import static io.zilla.bindings.http.stream.Http2RawClient.END_HEADERS;
import static io.zilla.bindings.http.stream.Http2RawClient.END_STREAM;
import static io.zilla.bindings.http.stream.Http2RawClient.GOAWAY;
import static io.zilla.bindings.http.stream.Http2RawClient.HEADERS;
import static io.zilla.bindings.http.stream.Http2RawClient.PING;
import static io.zilla.bindings.http.stream.Http2RawClient.RST_STREAM;
import static io.zilla.bindings.http.stream.Http2RawClient.SETTINGS;
import static io.zilla.bindings.http.stream.Http2RawClient.bytes;
import static io.zilla.bindings.http.stream.Http2RawClient.int32;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.http.codec.http2.Http2ErrorCode;
import io.zilla.bindings.http.stream.Http2RawClient.Frame;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP/2 shapes that took other servers down, over raw sockets, with the default limits
 * ({@code zilla.binding.http.server.*}, docs/bindings/http.md "Abuse limits"): each is answered with GOAWAY
 * ENHANCE_YOUR_CALM and the connection closes, while another connection goes on; a client within the limits keeps
 * its connection. The header timeout is 2 s here: also how long a connection that got GOAWAY has to read it and close.
 */
class Http2ServerFloodTest
{
    private static final long HEADER_TIMEOUT = 2_000;
    /** The default of zilla.binding.http.server.max.resets (per 30 s). */
    private static final int MAX_RESETS = 200;
    /** The GOAWAY's text past the default of zilla.binding.http.server.max.queued.control.frames. */
    private static final String UNREAD = "more than 1000 acknowledgements and resets left unread";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2ServerFloodTest.class);

    private Http2Peers.Ports ports;
    private Http2RawClient other;

    @BeforeEach
    void start() throws Exception
    {
        ports = Http2Peers.start(engine, 100, HEADER_TIMEOUT);
        other = new Http2RawClient(ports.clear()).handshake();
    }

    @AfterEach
    void otherConnectionGoesOn() throws Exception
    {
        assertEquals("still here", other.echo(1, "still here"));
        other.close();
    }

    @Test
    void shouldCalmRapidReset() throws Exception
    {
        final int pairs = 100_000;
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            // CVE-2023-44487: requests that stay open (their bodies never come), each reset at once
            final String[] fields = {":method", "POST", ":scheme", "http", ":authority", "127.0.0.1", ":path", "/echo"};
            final ByteArrayOutputStream flood = new ByteArrayOutputStream();
            flood.write(bytes(HEADERS, END_HEADERS, 1, client.block(fields)));
            flood.write(bytes(RST_STREAM, 0, 1, int32(Http2ErrorCode.CANCEL)));
            // the fields are in both tables now: the same few bytes open every other stream
            final byte[] indexed = client.block(fields);
            for (int i = 1; i < pairs; i++)
            {
                final int streamId = 1 + 2 * i;
                flood.write(bytes(HEADERS, END_HEADERS, streamId, indexed));
                flood.write(bytes(RST_STREAM, 0, streamId, int32(Http2ErrorCode.CANCEL)));
            }
            final CompletableFuture<Void> written = writeAside(client, flood.toByteArray());
            assertCalmed(client, "more than " + MAX_RESETS + " streams reset within 30000 ms");
            written.get(30, TimeUnit.SECONDS);
        }
        // far fewer than 100,000 reached the exit: each request the binding routes (to the echo) is counted
        final long requests = EngineCounters.read(engine.directory()).get("http").get("requests");
        assertTrue(requests > 0 && requests <= MAX_RESETS + 1, "requests that reached the exit: " + requests);
    }

    @Test
    void shouldTimeOutAnOpenHeaderBlock() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            final byte[] block = client.block(":method", "GET", ":scheme", "http", ":authority", "127.0.0.1",
                ":path", "/echo");
            // HEADERS without END_HEADERS, then nothing: as HTTP/1.1's headers, it may take header-timeout at most
            final long start = System.nanoTime();
            client.frame(HEADERS, END_STREAM, 1, Arrays.copyOf(block, 3));
            assertCalmed(client, "a header block not complete within the header timeout");
            final long elapsed = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertTrue(elapsed >= HEADER_TIMEOUT - 50, "timed out after " + elapsed + " ms");
        }
    }

    @Test
    void shouldCalmContinuationFlood() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            final byte[] block = client.block(":method", "GET", ":scheme", "http", ":authority", "127.0.0.1",
                ":path", "/echo");
            // empty CONTINUATION frames never grow the block, so its size limit never stops them
            final ByteArrayOutputStream flood = new ByteArrayOutputStream();
            flood.write(bytes(HEADERS, END_STREAM, 1, Arrays.copyOf(block, 3)));
            for (int i = 0; i < 10_000; i++)
            {
                flood.write(bytes(CONTINUATION, 0, 1, new byte[0]));
            }
            final CompletableFuture<Void> written = writeAside(client, flood.toByteArray());
            assertCalmed(client, "more than 16 CONTINUATION frames in a header block");
            written.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldCalmEmptyDataFlood() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            // CVE-2019-9518: empty DATA frames without END_STREAM cost a frame's work each and carry nothing
            final ByteArrayOutputStream flood = new ByteArrayOutputStream();
            flood.write(bytes(HEADERS, END_HEADERS, 1, client.block(":method", "POST", ":scheme", "http",
                ":authority", "127.0.0.1", ":path", "/echo")));
            for (int i = 0; i < 10_000; i++)
            {
                flood.write(bytes(DATA, 0, 1, new byte[0]));
            }
            final CompletableFuture<Void> written = writeAside(client, flood.toByteArray());
            assertCalmed(client, "more than 10 empty DATA frames in a row");
            written.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldCalmPingFloodNotRead() throws Exception
    {
        // CVE-2019-9512: PINGs whose acknowledgements the client does not read
        assertCalmedUnread(bytes(PING, 0, 0, new byte[8]));
    }

    @Test
    void shouldCalmSettingsFloodNotRead() throws Exception
    {
        // CVE-2019-9515: SETTINGS whose acknowledgements the client does not read
        assertCalmedUnread(bytes(SETTINGS, 0, 0, new byte[0]));
    }

    @Test
    void shouldKeepAClientWithinTheLimits() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            final String[] fields = {":method", "POST", ":scheme", "http", ":authority", "127.0.0.1", ":path", "/echo"};
            final ByteArrayOutputStream burst = new ByteArrayOutputStream();
            // requests cancelled, under the limit
            for (int i = 0; i < MAX_RESETS / 2; i++)
            {
                burst.write(bytes(HEADERS, END_HEADERS, 1 + 2 * i, client.block(fields)));
                burst.write(bytes(RST_STREAM, 0, 1 + 2 * i, int32(Http2ErrorCode.CANCEL)));
            }
            // PINGs in a burst, read as they come
            for (int i = 0; i < 500; i++)
            {
                burst.write(bytes(PING, 0, 0, new byte[8]));
            }
            // a header block in 9 frames, and a few empty DATA frames before the body
            final int streamId = 1 + 2 * (MAX_RESETS / 2);
            final byte[] block = client.block(fields);
            burst.write(bytes(HEADERS, 0, streamId, Arrays.copyOf(block, 1)));
            for (int i = 1; i < 8; i++)
            {
                burst.write(bytes(CONTINUATION, 0, streamId, new byte[0]));
            }
            burst.write(bytes(CONTINUATION, END_HEADERS, streamId, Arrays.copyOfRange(block, 1, block.length)));
            for (int i = 0; i < 5; i++)
            {
                burst.write(bytes(DATA, 0, streamId, new byte[0]));
            }
            burst.write(bytes(DATA, END_STREAM, streamId, "served".getBytes(StandardCharsets.US_ASCII)));
            final CompletableFuture<Void> written = writeAside(client, burst.toByteArray());
            assertArrayEquals("served".getBytes(StandardCharsets.US_ASCII), client.body(streamId));
            written.get(30, TimeUnit.SECONDS);
        }
    }

    // the client floods without reading (its receive buffer small), then reads: the acknowledgements, then GOAWAY
    private void assertCalmedUnread(byte[] frame) throws Exception
    {
        try (Http2RawClient client = Http2RawClient.withReceiveBuffer(ports.clear(), 4096).handshake())
        {
            // more acknowledgements than the sockets' buffers between us can hold: the client's receive buffer is small,
            // but the server's send buffer grows up to the kernel's tcp_wmem maximum (about 600 KiB was seen, 4 MiB is
            // the default maximum, and a CI host held all of a 2 MiB flood)
            final int bytes = 2 * 1024 * 1024 + 2 * maxSendBuffer();
            final byte[] flood = new byte[frame.length * (bytes / frame.length)];
            for (int at = 0; at < flood.length; at += frame.length)
            {
                System.arraycopy(frame, 0, flood, at, frame.length);
            }
            writeAside(client, flood).get(60, TimeUnit.SECONDS);
            // the flood may still wait in the kernel's buffers, unread by the server: reading now would let the
            // acknowledgements of its tail go out at once, never left unread; so read once the server has had enough
            awaitRejected();
            client.receiveBuffer(1 << 20);
            assertCalmed(client, UNREAD);
        }
    }

    private void awaitRejected() throws Exception
    {
        final long deadline = System.currentTimeMillis() + 60_000L;
        while (rejected() == 0 && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
        assertTrue(rejected() > 0, "the server did not refuse the flood within 60 s");
    }

    private long rejected() throws IOException
    {
        return EngineCounters.read(engine.directory()).get("http").getOrDefault("requests.rejected", 0L);
    }

    // the largest a TCP send buffer grows to by itself (the third of net.ipv4.tcp_wmem), Linux's default where unknown
    private static int maxSendBuffer()
    {
        try
        {
            final String[] wmem = Files.readString(Path.of("/proc/sys/net/ipv4/tcp_wmem")).trim().split("\\s+");
            return Math.min(Integer.parseInt(wmem[2]), 64 * 1024 * 1024);
        }
        catch (IOException | RuntimeException ex)
        {
            return 4 * 1024 * 1024;
        }
    }

    // written from another thread, so that this one reads meanwhile; a server that closed ends the writing
    private static CompletableFuture<Void> writeAside(Http2RawClient client, byte[] bytes)
    {
        return CompletableFuture.runAsync(() ->
        {
            try
            {
                client.write(bytes);
            }
            catch (IOException ex)
            {
                // the server closed the connection before it read everything
            }
        });
    }

    // GOAWAY ENHANCE_YOUR_CALM with the debug text of the limit the test means (each limit has its own), then closed
    private static void assertCalmed(Http2RawClient client, String why) throws Exception
    {
        final Frame goaway = client.await(GOAWAY, 0);
        assertNotNull(goaway, "no GOAWAY before the connection closed");
        assertEquals(ENHANCE_YOUR_CALM, goaway.errorCode(), Http2ErrorCode.name(goaway.errorCode()));
        assertEquals(why, goaway.debug());
        assertTrue(client.closed(), "the connection stayed open after GOAWAY");
    }
}
