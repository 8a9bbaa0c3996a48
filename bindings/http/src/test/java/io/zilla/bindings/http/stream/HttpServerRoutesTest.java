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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.http.HttpBinding;
import io.zilla.bindings.http.stream.HttpPeers.Response;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the exit of a route sees: the HttpBeginEx of a request (pseudo-headers first, names in lower case, no
 * hop-by-hop headers), the options' and the route's overrides, and a path template's captured parameter.
 */
class HttpServerRoutesTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpServerRoutesTest.class);

    private int port;

    @BeforeEach
    void start() throws Exception
    {
        port = startServer(engine, 10000).http();
    }

    @Test
    void shouldRouteByPathTemplateWithParams() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "GET /items/42?view=full HTTP/1.1\r\nHost: example.com:8080\r\nConnection: keep-alive\r\n"
                + "X-Custom: Value\r\nX-Item-Id: forged\r\n\r\n");
            final TestStream stream = awaitStream();
            final List<String[]> headers = headers(stream);
            assertEquals(List.of(
                ":method=GET", ":scheme=http", ":authority=example.com:8080", ":path=/items/42?view=full",
                "x-custom=Value", "x-forwarded-by=zilla", "x-item-id=item-42"),
                headers.stream().map(h -> h[0] + "=" + h[1]).toList());
            assertEquals(List.of("BEGIN", "END"), stream.frames().stream().limit(2).map(f -> f.split(" ")[0]).toList());
        }
    }

    @Test
    void shouldSendTheHeadOfAReplyWhoseBodyComesLater() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "GET /items/42 HTTP/1.1\r\nHost: example.com\r\n\r\n");
            final TestStream stream = awaitStream();
            // the exit begins its reply and sends nothing more: the head, held for the body's first bytes, goes anyway
            final InputStream in = socket.getInputStream();
            final StringBuilder head = new StringBuilder();
            while (head.length() < 4 || !head.substring(head.length() - 4).equals("\r\n\r\n"))
            {
                final int next = in.read();
                assertTrue(next >= 0, "the connection ended after " + head);
                head.append((char) next);
            }
            assertTrue(head.toString().startsWith("HTTP/1.1 200 OK\r\n"), head.toString());
            assertTrue(head.toString().contains("transfer-encoding: chunked\r\n"), head.toString());
            assertEquals("BEGIN", stream.frames().get(0).split(" ")[0]);
        }
    }

    @Test
    void shouldTakeAuthorityFromAbsoluteForm() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "GET http://example.org:81/items/7 HTTP/1.1\r\nHost: other.example\r\n\r\n");
            final Map<String, String> headers = map(headers(awaitStream()));
            assertEquals("example.org:81", headers.get(":authority"));
            assertEquals("/items/7", headers.get(":path"));
            assertEquals("item-7", headers.get("x-item-id"));
        }
    }

    @Test
    void shouldNotRouteOtherMethodsOrPaths() throws Exception
    {
        try (Socket socket = connect(port))
        {
            write(socket, "POST /items/42 HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n"
                + "GET /items/ HTTP/1.1\r\nHost: a\r\n\r\n"
                + "GET /items/1/2 HTTP/1.1\r\nHost: a\r\n\r\n");
            assertEquals(404, read(socket).status());
            assertEquals(404, read(socket).status());
            final Response third = read(socket);
            assertEquals(404, third.status());
            assertNull(third.header("transfer-encoding"));
            assertTrue(TestBinding.server("app").streams().isEmpty());
        }
    }

    private static TestStream awaitStream() throws InterruptedException
    {
        for (int i = 0; i < 200 && TestBinding.server("app").streams().isEmpty(); i++)
        {
            Thread.sleep(25);
        }
        final TestStream stream = TestBinding.server("app").streams().get(0);
        stream.await(Duration.ofSeconds(10), () -> stream.frames().stream().anyMatch(f -> f.startsWith("END")));
        return stream;
    }

    static List<String[]> headers(TestStream stream)
    {
        final byte[] extension = stream.extensions().get(0);
        final HttpBeginExFW beginEx = new HttpBeginExFW().wrap(new UnsafeBuffer(extension), 0, extension.length);
        assertEquals(HttpBinding.TYPE_ID, beginEx.typeId());
        final List<String[]> headers = new ArrayList<>();
        beginEx.headers().forEach((HttpHeaderFW h) -> headers.add(new String[] {h.name().asString(), h.value().asString()}));
        return headers;
    }

    static Map<String, String> map(List<String[]> headers)
    {
        final Map<String, String> map = new java.util.LinkedHashMap<>();
        headers.forEach(h -> map.put(h[0], h[1]));
        return map;
    }
}
