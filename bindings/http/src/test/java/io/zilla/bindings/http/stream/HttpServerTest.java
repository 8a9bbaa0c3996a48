/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpPeers.closed;
import static io.zilla.bindings.http.stream.HttpPeers.connect;
import static io.zilla.bindings.http.stream.HttpPeers.read;
import static io.zilla.bindings.http.stream.HttpPeers.startServer;
import static io.zilla.bindings.http.stream.HttpPeers.write;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import io.zilla.bindings.http.stream.HttpPeers.Response;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.EngineExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The http server over HTTP/1.1, driven by a raw socket: framing, keep-alive, pipelining, flow control. */
class HttpServerTest
{
    @RegisterExtension
    // the engine's default of 1,024 slots, not the test engine's 256: 200 connections at once each hold a slot in tcp
    // and one in http for a moment (a response beyond the client's credit), and 256 aborted some of them
    // (http.buffers.exhausted) in about one run of three of shouldServeManyConnectionsAtOnce
    final EngineExtension engine = new EngineExtension().anchor(HttpServerTest.class)
        .property(EngineConfiguration.BUFFER_SLOTS, 1024);

    private int port;

    @BeforeEach
    void start() throws Exception
    {
        port = startServer(engine, 10000).http();
    }

    @Test
    void shouldEchoPostWithContentLength() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\n\r\nhello");
            final Response response = read(socket);
            assertEquals(200, response.status());
            assertEquals("HTTP/1.1 200 OK", response.statusLine());
            assertEquals("chunked", response.header("transfer-encoding"));
            assertEquals("hello", response.text());
        }
    }

    @Test
    void shouldAnswerGetWithoutBody() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
            final Response response = read(socket);
            assertEquals(200, response.status());
            assertEquals("", response.text());
        }
    }

    @Test
    void shouldDechunkRequestBodyAndKeepAlive() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "POST /echo HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "5 ;a=b\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nx-trailer: yes\r\n\r\n");
            assertEquals("hello world", read(socket).text());
            write(socket, "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc");
            assertEquals("abc", read(socket).text());
        }
    }

    @Test
    void shouldAnswerPipelinedRequestsInOrder() throws Exception
    {
        try (Socket socket = connect(port))
        {
            final StringBuilder requests = new StringBuilder();
            for (int i = 0; i < 10; i++)
            {
                requests.append("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: ")
                    .append(Integer.toString(i).length()).append("\r\n\r\n").append(i);
            }
            write(socket, requests.toString());
            for (int i = 0; i < 10; i++)
            {
                assertEquals(Integer.toString(i), read(socket).text());
            }
        }
    }

    @Test
    void shouldAnswerPipelinedRequestsBeforeClientHalfClose() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "GET /echo HTTP/1.1\r\nHost: a\r\n\r\nPOST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nok");
            socket.shutdownOutput();
            assertEquals(200, read(socket).status());
            assertEquals("ok", read(socket).text());
            assertTrue(closed(socket));
        }
    }

    @Test
    void shouldCloseAfterConnectionClose() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");
            final Response response = read(socket);
            assertEquals("close", response.header("connection"));
            assertTrue(closed(socket));
        }
    }

    @Test
    void shouldServeHttp10WithCloseDelimitedBody() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "POST /echo HTTP/1.0\r\nContent-Length: 4\r\n\r\nabcd");
            final Response response = read(socket);
            assertEquals(200, response.status());
            assertNull(response.header("transfer-encoding"));
            assertEquals("close", response.header("connection"));
            assertEquals("abcd", response.text());
        }
    }

    @Test
    void shouldAnswerExpectContinue() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n");
            final Response interim = read(socket);
            assertEquals(100, interim.status());
            write(socket, "wxyz");
            final Response response = read(socket);
            assertEquals(200, response.status());
            assertEquals("wxyz", response.text());
        }
    }

    @Test
    void shouldAnswerHeadWithoutBody() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "HEAD /echo HTTP/1.1\r\nHost: localhost\r\n\r\nGET / HTTP/1.1\r\nHost: localhost\r\n\r\n");
            assertEquals(200, read(socket.getInputStream(), true).status());
            assertEquals(200, read(socket).status());
        }
    }

    @Test
    void shouldIgnoreUpgradeToH2c() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "GET /echo HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\n"
                + "HTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n");
            final Response response = read(socket);
            assertEquals("HTTP/1.1 200 OK", response.statusLine());
        }
    }

    @Test
    void shouldRefuseHttp2PriorKnowledgeWithGoaway() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n");
            final byte[] answer = socket.getInputStream().readAllBytes();
            // an empty SETTINGS, then GOAWAY (type 7) with HTTP_1_1_REQUIRED (0xd)
            assertEquals(26, answer.length);
            assertEquals(4, answer[3]);
            assertEquals(7, answer[12]);
            assertEquals(0x0d, answer[25]);
        }
    }

    @Test
    void shouldAnswerNotFoundAndKeepAlive() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "POST /nowhere HTTP/1.1\r\nHost: localhost\r\nContent-Length: 3\r\n\r\nabc"
                + "GET /echo HTTP/1.1\r\nHost: localhost\r\n\r\n");
            final Response missing = read(socket);
            assertEquals(404, missing.status());
            assertEquals("0", missing.header("content-length"));
            assertEquals(200, read(socket).status());
        }
    }

    @Test
    void shouldEchoLargeBodiesByteExact() throws Exception
    {
        final byte[] body = new byte[8 * 1024 * 1024];
        new Random(42).nextBytes(body);
        try (Socket socket = connect(port))
        {
            final Thread writer = new Thread(() ->
            {
                try
                {
                    final OutputStream out = socket.getOutputStream();
                    out.write(("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + body.length + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                    out.write(body);
                    out.flush();
                }
                catch (IOException ex)
                {
                    throw new RuntimeException(ex);
                }
            });
            writer.start();
            final Response response = read(socket);
            writer.join(10_000);
            assertArrayEquals(body, response.body());
        }
    }

    @Test
    void shouldPushBackOnAClientThatDoesNotRead() throws Exception
    {
        final int size = 64 * 1024 * 1024;
        try (Socket socket = connect(port))
        {
            socket.setReceiveBufferSize(64 * 1024);
            final java.util.concurrent.atomic.AtomicLong written = new java.util.concurrent.atomic.AtomicLong();
            final Thread writer = new Thread(() ->
            {
                try
                {
                    final OutputStream out = socket.getOutputStream();
                    out.write(("POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + size + "\r\n\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                    final byte[] chunk = new byte[64 * 1024];
                    for (int i = 0; i < size / chunk.length; i++)
                    {
                        java.util.Arrays.fill(chunk, (byte) i);
                        out.write(chunk);
                        written.addAndGet(chunk.length);
                    }
                    out.flush();
                }
                catch (IOException ex)
                {
                    // the socket closed at the end of the test
                }
            });
            writer.setDaemon(true);
            writer.start();
            // nothing reads the echo: the writer must stall, with what is in flight bounded by credit and kernel buffers
            long last = -1;
            while (written.get() != last)
            {
                last = written.get();
                Thread.sleep(500);
            }
            assertTrue(last < size / 4, "written while nobody reads: " + last);

            // reading resumes the flow, and every byte comes back in order
            final Response response = read(socket);
            writer.join(30_000);
            assertEquals(size, response.body().length);
            for (int i = 0; i < size; i += 64 * 1024)
            {
                assertEquals((byte) (i / (64 * 1024)), response.body()[i]);
            }
        }
    }

    @Test
    void shouldServeManyConnectionsAtOnce() throws Exception
    {
        final int count = 200;
        final Socket[] sockets = new Socket[count];
        try
        {
            for (int i = 0; i < count; i++)
            {
                sockets[i] = connect(port);
            }
            // every connection has a request in flight before any answer is read
            for (int round = 0; round < 3; round++)
            {
                for (int i = 0; i < count; i++)
                {
                    final String body = i + "/" + round;
                    write(sockets[i], "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: " + body.length()
                        + "\r\n\r\n" + body);
                }
                for (int i = 0; i < count; i++)
                {
                    assertEquals(i + "/" + round, read(sockets[i]).text());
                }
            }
        }
        finally
        {
            for (Socket socket : sockets)
            {
                if (socket != null)
                {
                    socket.close();
                }
            }
        }
    }

    @Test
    void shouldKeepOtherConnectionsWorkingAfterBadRequest() throws Exception
    {
        try (Socket good = connect(port); Socket bad = connect(port))
        {
            write(good, "POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\n\r\nfirst");
            write(bad, "GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n");
            assertEquals(400, read(bad).status());
            assertTrue(closed(bad));
            write(good, "half");
            write(good, "!");
            assertEquals("firsthalf!", read(good).text());
        }
    }
}
