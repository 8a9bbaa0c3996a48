/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.connect;
import static io.zilla.bindings.http.stream.HttpPeers.read;
import static io.zilla.bindings.http.stream.HttpPeers.startServer;
import static io.zilla.bindings.http.stream.HttpPeers.write;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.net.Socket;

import io.zilla.bindings.http.stream.HttpPeers.Response;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The cross-origin policy, answered by the binding: preflights, and the headers of actual responses. */
class HttpServerCorsTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpServerCorsTest.class);

    private int port;

    @BeforeEach
    void start() throws Exception
    {
        port = startServer(engine, 10000).cors();
    }

    @Test
    void shouldAnswerAllowedPreflight() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "OPTIONS /echo HTTP/1.1\r\nHost: api.example.com\r\nOrigin: https://example.com\r\n"
                + "Access-Control-Request-Method: POST\r\nAccess-Control-Request-Headers: X-Custom, Content-Type\r\n\r\n");
            final Response response = read(socket);
            assertEquals(204, response.status());
            assertEquals("https://example.com", response.header("access-control-allow-origin"));
            assertEquals("GET, POST", response.header("access-control-allow-methods"));
            assertEquals("x-custom, content-type", response.header("access-control-allow-headers"));
            assertEquals("true", response.header("access-control-allow-credentials"));
            assertEquals("600", response.header("access-control-max-age"));
            assertEquals("origin", response.header("vary"));
        }
    }

    @Test
    void shouldRefusePreflightsOutsideThePolicy() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "OPTIONS /echo HTTP/1.1\r\nHost: a\r\nOrigin: https://evil.example\r\n"
                + "Access-Control-Request-Method: POST\r\n\r\n"
                + "OPTIONS /echo HTTP/1.1\r\nHost: a\r\nOrigin: https://example.com\r\n"
                + "Access-Control-Request-Method: DELETE\r\n\r\n"
                + "OPTIONS /echo HTTP/1.1\r\nHost: a\r\nOrigin: https://example.com\r\n"
                + "Access-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: x-secret\r\n\r\n");
            for (int i = 0; i < 3; i++)
            {
                final Response response = read(socket);
                assertEquals(403, response.status());
                assertNull(response.header("access-control-allow-origin"));
            }
        }
    }

    @Test
    void shouldAddHeadersToActualResponses() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "POST /echo HTTP/1.1\r\nHost: a\r\nOrigin: https://example.com\r\nContent-Length: 2\r\n\r\nhi"
                + "POST /echo HTTP/1.1\r\nHost: a\r\nOrigin: https://evil.example\r\nContent-Length: 2\r\n\r\nho");
            final Response allowed = read(socket);
            assertEquals("hi", allowed.text());
            assertEquals("https://example.com", allowed.header("access-control-allow-origin"));
            assertEquals("true", allowed.header("access-control-allow-credentials"));
            assertEquals("x-echo", allowed.header("access-control-expose-headers"));
            final Response other = read(socket);
            assertEquals("ho", other.text());
            assertNull(other.header("access-control-allow-origin"));
        }
    }
}
