/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.closed;
import static io.zilla.bindings.http.stream.HttpPeers.connect;
import static io.zilla.bindings.http.stream.HttpPeers.read;
import static io.zilla.bindings.http.stream.HttpPeers.startServer;
import static io.zilla.bindings.http.stream.HttpPeers.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.util.stream.Stream;

import io.zilla.bindings.http.stream.HttpPeers.Response;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Requests the http server must refuse, each with its status, and the connection closed after it (the framing of
 * what follows cannot be trusted). The header list limit is 4096 bytes here, the header timeout 300 ms.
 */
class HttpServerBadInputTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpServerBadInputTest.class);

    private int port;

    @BeforeEach
    void start() throws Exception
    {
        port = startServer(engine, 300).http();
    }

    static Stream<Arguments> refused()
    {
        return Stream.of(
            Arguments.of("both Content-Length and Transfer-Encoding", 400,
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"),
            Arguments.of("two differing Content-Length values", 400,
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
            Arguments.of("a Content-Length that is not a number", 400,
                "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: +3\r\n\r\nabc"),
            Arguments.of("a Transfer-Encoding whose last coding is not chunked", 400,
                "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n"),
            Arguments.of("a Transfer-Encoding with chunked twice", 400,
                "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n"),
            Arguments.of("a transfer coding other than chunked", 501,
                "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"),
            Arguments.of("a Transfer-Encoding from an HTTP/1.0 client", 400,
                "POST /echo HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
            Arguments.of("a bad chunk size", 400,
                "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"),
            Arguments.of("a chunk size with trailing whitespace and no extension", 400,
                "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3 \r\nabc\r\n0\r\n\r\n"),
            Arguments.of("a chunk size with a trailing tab and no extension", 400,
                "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\t\r\nabc\r\n0\r\n\r\n"),
            Arguments.of("obs-fold", 400,
                "GET /echo HTTP/1.1\r\nHost: a\r\nX-Folded: one\r\n two\r\n\r\n"),
            Arguments.of("a space before the colon", 400,
                "GET /echo HTTP/1.1\r\nHost: a\r\nX-Space : yes\r\n\r\n"),
            Arguments.of("a bare LF", 400,
                "GET /echo HTTP/1.1\nHost: a\n\n"),
            Arguments.of("a bare CR", 400,
                "GET /echo HTTP/1.1\r\nHost: a\rX: b\r\n\r\n"),
            Arguments.of("a control character in a value", 400,
                "GET /echo HTTP/1.1\r\nHost: a\r\nX-Bad: a\u0001b\r\n\r\n"),
            Arguments.of("no Host in HTTP/1.1", 400,
                "GET /echo HTTP/1.1\r\nAccept: */*\r\n\r\n"),
            Arguments.of("two Host headers", 400,
                "GET /echo HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
            Arguments.of("two spaces in the request line", 400,
                "GET  /echo HTTP/1.1\r\nHost: a\r\n\r\n"),
            Arguments.of("a malformed version", 400,
                "GET /echo HTTP/1.1.1\r\nHost: a\r\n\r\n"),
            Arguments.of("HTTP/2.0 in a request line", 505,
                "GET /echo HTTP/2.0\r\nHost: a\r\n\r\n"),
            Arguments.of("HTTP/3.0", 505,
                "GET /echo HTTP/3.0\r\nHost: a\r\n\r\n"),
            Arguments.of("an Expect other than 100-continue", 417,
                "POST /echo HTTP/1.1\r\nHost: a\r\nExpect: teapot\r\nContent-Length: 1\r\n\r\nx"),
            Arguments.of("a request line longer than the limit", 414,
                "GET /" + "a".repeat(5000) + " HTTP/1.1\r\nHost: a\r\n\r\n"),
            Arguments.of("a header list longer than the limit", 431,
                "GET /echo HTTP/1.1\r\nHost: a\r\n" + "X-Filler: " + "b".repeat(100) + "\r\n".repeat(1) + ("X-More: "
                    + "c".repeat(100) + "\r\n").repeat(40) + "\r\n"));
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @MethodSource("refused")
    void shouldRefuse(String name, int status, String request) throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, request);
            final Response response = read(socket);
            assertEquals(status, response.status(), name);
            assertEquals("close", response.header("connection"), name);
            assertTrue(closed(socket), name);
        }
        // the engine goes on serving
        try (Socket socket = connect(port))
        {
            write(socket, "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok");
            assertEquals("ok", read(socket).text());
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"INVALID CONNECTION PREFACE\r\n\r\n", "GET / FTP/1.0\r\n\r\n", "HELLO THERE ALL\r\n\r\n"})
    void shouldCloseWithoutAnswerWhenNotSpeakingHttp(String bytes) throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, bytes);
            // nothing written back (an HTTP/1.1 status line would be noise to such a peer): closed at once
            assertTrue(closed(socket), bytes);
        }
        try (Socket socket = connect(port))
        {
            write(socket, "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok");
            assertEquals("ok", read(socket).text());
        }
    }

    @Test
    void shouldCutResponseShortOnBadChunkAfterResponseBegan() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "POST /echo HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n");
            final java.io.InputStream in = socket.getInputStream();
            // the echo answers at once: its response has begun, so a malformed chunk can only cut it short
            assertEquals("HTTP/1.1 200 OK", new String(in.readNBytes(15), java.nio.charset.StandardCharsets.US_ASCII));
            write(socket, "3\r\nabcX\r\n0\r\n\r\n");
            final String rest;
            try
            {
                rest = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
            }
            catch (java.net.SocketException ex)
            {
                // reset: cut short as it should be
                return;
            }
            assertTrue(!rest.endsWith("0\r\n\r\n"), rest);
        }
    }

    @Test
    void shouldTimeOutSlowHeaders() throws Exception
    {
        try (Socket slow = connect(port); Socket other = connect(port))
        {
            write(slow, "GET /echo HTTP/1.1\r\nHost: a\r\n");
            write(other, "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok");
            assertEquals("ok", read(other).text());
            final Response response = read(slow);
            assertEquals(408, response.status());
            assertTrue(closed(slow));
        }
    }

    @Test
    void shouldCloseIdleConnectionAfterTimeout() throws Exception
    {
        try (Socket idle = connect(port))
        {
            assertTrue(closed(idle));
        }
    }
}
