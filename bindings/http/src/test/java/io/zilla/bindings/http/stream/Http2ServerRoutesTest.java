/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.Http2RawClient.DATA;
import static io.zilla.bindings.http.stream.Http2RawClient.END_HEADERS;
import static io.zilla.bindings.http.stream.Http2RawClient.END_STREAM;
import static io.zilla.bindings.http.stream.Http2RawClient.HEADERS;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.http.HttpBinding;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.specs.http.types.stream.HttpEndExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the exit of a route sees of an HTTP/2 request: the same HttpBeginEx as HTTP/1.1 gives (pseudo-headers first,
 * the options' and the route's overrides, a path template's parameter), the body as Data, trailers in an HttpEndEx.
 */
class Http2ServerRoutesTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(Http2ServerRoutesTest.class);

    private Http2Peers.Ports ports;

    @BeforeEach
    void start() throws Exception
    {
        ports = Http2Peers.start(engine, 100);
    }

    @Test
    void shouldRouteByPathTemplateWithParams() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, client.block(":method", "GET", ":scheme", "http",
                ":authority", "example.com:8080", ":path", "/items/42?view=full", "x-custom", "Value",
                "x-item-id", "forged"));
            final TestStream stream = awaitStream(0);
            assertEquals(List.of(
                ":method=GET", ":scheme=http", ":authority=example.com:8080", ":path=/items/42?view=full",
                "x-custom=Value", "x-forwarded-by=zilla", "x-item-id=item-42"),
                HttpServerRoutesTest.headers(stream).stream().map(h -> h[0] + "=" + h[1]).toList());
            assertEquals(List.of("BEGIN", "END"), stream.frames().stream().limit(2).map(f -> f.split(" ")[0]).toList());
        }
    }

    @Test
    void shouldPassBodyAndTrailers() throws Exception
    {
        try (Http2RawClient client = new Http2RawClient(ports.clear()).handshake())
        {
            client.frame(HEADERS, END_HEADERS, 1, client.block(":method", "POST", ":scheme", "https",
                ":authority", "a", ":path", "/items/7", "te", "trailers"));
            client.frame(DATA, 0, 1, "abc".getBytes(StandardCharsets.US_ASCII));
            client.frame(DATA, 0, 1, "def".getBytes(StandardCharsets.US_ASCII));
            client.frame(HEADERS, END_HEADERS | END_STREAM, 1, client.block("x-checksum", "42"));
            final TestStream stream = awaitStream(0);
            assertEquals("abcdef", new String(stream.received(), StandardCharsets.US_ASCII));
            final List<String> frames = stream.frames().stream().map(f -> f.split(" ")[0]).toList();
            final int end = frames.indexOf("END");
            final byte[] extension = stream.extensions().get(end);
            final HttpEndExFW endEx = new HttpEndExFW().wrap(new UnsafeBuffer(extension), 0, extension.length);
            assertEquals(HttpBinding.TYPE_ID, endEx.typeId());
            final List<String> trailers = new ArrayList<>();
            endEx.trailers().forEach((HttpHeaderFW h) -> trailers.add(h.name().asString() + "=" + h.value().asString()));
            assertEquals(List.of("x-checksum=42"), trailers);
        }
    }

    private static TestStream awaitStream(int index) throws InterruptedException
    {
        for (int i = 0; i < 200 && TestBinding.server("app").streams().size() <= index; i++)
        {
            Thread.sleep(25);
        }
        final TestStream stream = TestBinding.server("app").streams().get(index);
        stream.await(Duration.ofSeconds(10), () -> stream.frames().stream().anyMatch(f -> f.startsWith("END")));
        return stream;
    }
}
