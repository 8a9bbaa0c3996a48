/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.COMPRESSION_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.FLOW_CONTROL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.PROTOCOL_ERROR;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.REFUSED_STREAM;
import static io.zilla.bindings.http.codec.http2.Http2ErrorCode.STREAM_CLOSED;
import static io.zilla.bindings.http.stream.Http2RawClient.CONTINUATION;
import static io.zilla.bindings.http.stream.Http2RawClient.DATA;
import static io.zilla.bindings.http.stream.Http2RawClient.END_HEADERS;
import static io.zilla.bindings.http.stream.Http2RawClient.END_STREAM;
import static io.zilla.bindings.http.stream.Http2RawClient.GOAWAY;
import static io.zilla.bindings.http.stream.Http2RawClient.HEADERS;
import static io.zilla.bindings.http.stream.Http2RawClient.RST_STREAM;
import static io.zilla.bindings.http.stream.Http2RawClient.SETTINGS;
import static io.zilla.bindings.http.stream.Http2RawClient.WINDOW_UPDATE;
import static io.zilla.bindings.http.stream.Http2RawClient.int32;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.http.stream.Http2RawClient.Frame;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Bad HTTP/2 input, over raw sockets: each gets its exact error code (RST_STREAM for a stream error, GOAWAY and the
 * connection closed for a connection error), and another connection is served meanwhile.
 */
class Http2ServerBadInputTest
{
    private static final int CONCURRENT_STREAMS = 4;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2ServerBadInputTest.class);

    private Http2Peers.Ports ports;
    private Http2RawClient other;

    @BeforeEach
    void start() throws Exception
    {
        ports = Http2Peers.start(engine, CONCURRENT_STREAMS);
        // a connection that is open before the bad input and must go on after it
        other = new Http2RawClient(ports.clear()).handshake();
    }

    @AfterEach
    void otherConnectionGoesOn() throws Exception
    {
        assertEquals("still here", other.echo(1, "still here"));
        other.close();
    }

    @Test
    void shouldRefuseBadPreface() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()))
        {
            // the request line of the preface, then not the rest of it
            client.write("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertGoaway(client, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldRefuseBadHpack() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            // an indexed field of index 0
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, new byte[] {(byte) 0x80});
            assertGoaway(client, COMPRESSION_ERROR);
        }
    }

    @Test
    void shouldResetDataOnClosedStream() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            client.get(1, "/echo", true);
            client.body(1);
            client.frame(DATA, END_STREAM, 1, "late".getBytes(StandardCharsets.US_ASCII));
            assertReset(client, 1, STREAM_CLOSED);
            // the connection goes on
            client.get(3, "/echo", true);
            assertEquals(0, client.body(3).length);
        }
    }

    @Test
    void shouldRefuseConnectionWindowOverflow() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            client.frame(WINDOW_UPDATE, 0, 0, int32(0x7fff_ffff));
            assertGoaway(client, FLOW_CONTROL_ERROR);
        }
    }

    @Test
    void shouldResetStreamWindowOverflow() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            client.request(1, "POST", "/echo", false);
            client.frame(WINDOW_UPDATE, 0, 1, int32(0x7fff_ffff));
            assertReset(client, 1, FLOW_CONTROL_ERROR);
        }
    }

    @Test
    void shouldRefuseStreamsOverTheLimit() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            // requests that stay open: their bodies never end
            for (int i = 0; i <= CONCURRENT_STREAMS; i++)
            {
                client.request(1 + 2 * i, "POST", "/echo", false);
            }
            assertReset(client, 1 + 2 * CONCURRENT_STREAMS, REFUSED_STREAM);
            // one of the open streams ends: a new one is taken
            client.frame(DATA, END_STREAM, 1, "one".getBytes(StandardCharsets.US_ASCII));
            assertArrayEquals("one".getBytes(StandardCharsets.US_ASCII), client.body(1));
            client.request(21, "POST", "/echo", true);
            assertEquals(0, client.body(21).length);
        }
    }

    @Test
    void shouldCountStreamsWhoseEndWaitsForAWindow() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            // streams get no window: each response's END_STREAM waits, so the streams stay open (h2spec 5.1.2)
            client.frame(SETTINGS, 0, 0, new byte[] {0, 4, 0, 0, 0, 0});
            for (int i = 0; i <= CONCURRENT_STREAMS; i++)
            {
                client.get(1 + 2 * i, i % 2 == 0 ? "/echo" : "/none", true);
            }
            assertReset(client, 1 + 2 * CONCURRENT_STREAMS, REFUSED_STREAM);
            // a window for stream 1: its END_STREAM goes, and a new stream is taken
            client.frame(WINDOW_UPDATE, 0, 1, int32(1));
            assertEquals(0, client.body(1).length);
            client.get(21, "/echo", true);
            final Frame response = client.await(HEADERS, 21);
            assertNotNull(response, "no response HEADERS on stream 21");
            assertEquals(200, response.status());
        }
    }

    @Test
    void shouldRefuseInterleavedContinuation() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            final byte[] block = client.block(":method", "GET", ":scheme", "http", ":authority", "127.0.0.1",
                ":path", "/echo");
            client.frame(HEADERS, END_STREAM, 1, java.util.Arrays.copyOf(block, 3));
            client.frame(HEADERS, END_STREAM | END_HEADERS, 3, block);
            assertGoaway(client, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldAcceptHeadersWithContinuation() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            final byte[] block = client.block(":method", "GET", ":scheme", "http", ":authority", "127.0.0.1",
                ":path", "/echo");
            client.frame(HEADERS, END_STREAM, 1, java.util.Arrays.copyOf(block, 3));
            client.frame(CONTINUATION, 0, 1, java.util.Arrays.copyOfRange(block, 3, 5));
            client.frame(CONTINUATION, END_HEADERS, 1, java.util.Arrays.copyOfRange(block, 5, block.length));
            final Frame response = client.await(HEADERS, 1);
            assertNotNull(response);
            assertEquals(200, response.status());
        }
    }

    @Test
    void shouldAnswerTooLargeHeaderListWith431() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, client.block(":method", "GET", ":scheme", "http",
                ":authority", "127.0.0.1", ":path", "/echo", "x-large", "x".repeat(5000)));
            final Frame response = client.await(HEADERS, 1);
            assertNotNull(response);
            assertEquals(431, response.status());
            // the connection and its HPACK tables go on
            client.get(3, "/echo", true);
            final Frame next = client.await(HEADERS, 3);
            assertNotNull(next);
            assertEquals(200, next.status());
        }
    }

    @Test
    void shouldResetMalformedRequests() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, client.block(":method", "GET", ":scheme", "http",
                ":path", "/echo", "X-Upper", "case"));
            assertReset(client, 1, PROTOCOL_ERROR);
            client.frame(HEADERS, END_HEADERS | END_STREAM, 3, client.block(":method", "GET", ":path", "/echo"));
            assertReset(client, 3, PROTOCOL_ERROR);
            client.frame(HEADERS, END_HEADERS | END_STREAM, 5, client.block(":method", "GET", ":scheme", "http",
                ":path", "/echo", "connection", "keep-alive"));
            assertReset(client, 5, PROTOCOL_ERROR);
            client.frame(HEADERS, END_HEADERS | END_STREAM, 7, client.block(":method", "GET", ":scheme", "http",
                ":path", "/echo", "content-length", "3"));
            assertReset(client, 7, PROTOCOL_ERROR);
            client.get(9, "/echo", true);
            assertEquals(0, client.body(9).length);
        }
    }

    @Test
    void shouldRefuseEvenStreamIds() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            client.get(2, "/echo", true);
            assertGoaway(client, PROTOCOL_ERROR);
        }
    }

    @Test
    void shouldRefuseHttp2OverTlsWithBadPreface() throws Exception
    {
        final javax.net.ssl.SSLSocketFactory factory = Http2Peers.trustingContext().getSocketFactory();
        try (javax.net.ssl.SSLSocket socket = (javax.net.ssl.SSLSocket) factory.createSocket("127.0.0.1", ports.tls()))
        {
            socket.setSoTimeout(10_000);
            final javax.net.ssl.SSLParameters parameters = socket.getSSLParameters();
            parameters.setApplicationProtocols(new String[] {"h2"});
            socket.setSSLParameters(parameters);
            socket.startHandshake();
            assertEquals("h2", socket.getApplicationProtocol());
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            final java.io.DataInputStream in = new java.io.DataInputStream(socket.getInputStream());
            // our SETTINGS, then GOAWAY PROTOCOL_ERROR
            int type;
            byte[] payload;
            do
            {
                final int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
                type = in.readUnsignedByte();
                in.readUnsignedByte();
                in.readInt();
                payload = in.readNBytes(length);
            }
            while (type != GOAWAY);
            assertEquals(PROTOCOL_ERROR, java.nio.ByteBuffer.wrap(payload).getInt(4));
            assertEquals(-1, in.read());
        }
    }

    @Test
    void shouldAbortResponsesWaitingForAWindowOnceTheClientClosedItsSide() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            // streams get no window: the echoed body can never go, only the response's HEADERS
            client.frame(SETTINGS, 0, 0, new byte[] {0, 4, 0, 0, 0, 0});
            client.request(1, "POST", "/echo", false);
            client.frame(DATA, END_STREAM, 1, "waits for a window".getBytes(StandardCharsets.US_ASCII));
            assertNotNull(client.await(HEADERS, 1), "no response HEADERS on stream 1");
            // a client that closed its side can open no window: the stream is aborted, and the connection ends
            client.shutdownOutput();
            assertTrue(client.closed(), "the connection stayed open with a response that can never be sent");
        }
    }

    @Test
    void shouldEndStreamsWhoseEndWaitsForAWindowWhenTheClientClosesItsSide() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            // stream 1's END_STREAM waits for a window; stream 3 is answered (404) while its request is still open
            client.frame(SETTINGS, 0, 0, new byte[] {0, 4, 0, 0, 0, 0});
            client.get(1, "/echo", true);
            assertNotNull(client.await(HEADERS, 1), "no response HEADERS on stream 1");
            client.request(3, "POST", "/none", false);
            assertNotNull(client.await(HEADERS, 3), "no response HEADERS on stream 3");
            client.frame(WINDOW_UPDATE, 0, 3, int32(1));
            assertEquals(0, client.body(3).length);
            // the end of the client's side closes stream 3, whose close lets stream 1's END_STREAM go under the loop
            client.shutdownOutput();
            assertTrue(client.closed(), "the connection stayed open after the client closed its side");
        }
        assertNoStreamFailed();
    }

    @Test
    void shouldAbortStreamsWhoseEndWaitsForAWindowWhenTheClientResets() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            // streams get no window: both responses are complete and their END_STREAM waits for one
            client.frame(SETTINGS, 0, 0, new byte[] {0, 4, 0, 0, 0, 0});
            client.get(1, "/echo", true);
            client.get(3, "/echo", true);
            assertNotNull(client.await(HEADERS, 1), "no response HEADERS on stream 1");
            assertNotNull(client.await(HEADERS, 3), "no response HEADERS on stream 3");
            // aborting one stream must not end the other (its END_STREAM going now) under the loop that aborts all
            client.reset();
        }
        assertNoStreamFailed();
    }

    // a connection error after what the test did: once its event is out, those of what the test did would be too
    private void assertNoStreamFailed() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()))
        {
            client.write("PRI * HTTP/2.0\r\n\r\nXX\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertGoaway(client, PROTOCOL_ERROR);
        }
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (engine.events().stream().noneMatch(e -> "http.h2.connection.error".equals(e.event()))
            && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertTrue(engine.events().stream().anyMatch(e -> "http.h2.connection.error".equals(e.event())),
            engine.events().toString());
        assertTrue(engine.events().stream().noneMatch(e -> "engine.stream.failed".equals(e.event())),
            engine.events().toString());
    }

    private static void assertGoaway(Http2RawClient client, int code) throws Exception
    {
        Frame frame = client.read();
        while (frame != null && frame.type() != GOAWAY)
        {
            assertTrue(frame.type() == SETTINGS || frame.type() == WINDOW_UPDATE, "unexpected frame " + frame);
            frame = client.read();
        }
        assertNotNull(frame, "no GOAWAY before the connection closed");
        assertEquals(code, frame.errorCode());
        assertTrue(client.closed());
    }

    private static void assertReset(Http2RawClient client, int streamId, int code) throws Exception
    {
        final Frame frame = client.await(RST_STREAM, streamId);
        assertNotNull(frame, "no RST_STREAM on stream " + streamId);
        assertEquals(code, frame.errorCode());
    }
}
