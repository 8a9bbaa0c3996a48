/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** A request's head read in place, and read again into the same object for the next request. */
class HttpKafkaRequestTest
{
    private static final byte[] IDEMPOTENCY = "idempotency-key".getBytes(UTF_8);

    private final HttpKafkaRequest request = new HttpKafkaRequest();
    private final HttpHeaderFW headerRO = new HttpHeaderFW();

    @Test
    void shouldReadTheHeadersThisBindingUsesAndKeepTheRecordsHeaders()
    {
        assertTrue(request.read(headerRO, beginEx(":method", "POST", ":scheme", "http", ":path", "/items/a?x=1",
            "content-length", " 12 ", "prefer", "Respond-Async ,\twait=5", "idempotency-key", "k-1", "x-trace", "t1"),
            IDEMPOTENCY));
        assertSame("POST", request.method, "one of the constants");
        assertEquals("/items/a", request.path(), "without the query");
        assertEquals(12, request.contentLength);
        assertTrue(request.respondAsync);
        assertEquals(5, request.preferWait);
        assertTrue(request.hasIdempotencyKey());
        assertArrayEquals("k-1".getBytes(UTF_8), request.idempotencyKey());
        assertEquals(List.of(":method=POST", ":path=/items/a?x=1", "idempotency-key=k-1", "x-trace=t1"), headers(),
            "the pseudo-headers other than :method and :path, content-length and prefer stay out");
    }

    @Test
    void shouldKeepThePathAtTheStartWhenHeadersComeBeforeIt()
    {
        assertTrue(request.read(headerRO, beginEx("x-first", "1", ":method", "PUT", "idempotency-key", "k-2",
            ":path", "/items/b"), IDEMPOTENCY));
        assertEquals("/items/b", request.path());
        assertArrayEquals("k-2".getBytes(UTF_8), request.idempotencyKey());
        assertEquals(List.of("x-first=1", ":method=PUT", "idempotency-key=k-2", ":path=/items/b"), headers());
    }

    @Test
    void shouldForgetTheRequestBeforeWhenReadAgain()
    {
        assertTrue(request.read(headerRO, beginEx(":method", "POST", ":path", "/items/long-name", "prefer",
            "respond-async", "if-none-match", "\"a\"", "idempotency-key", "k", "content-length", "3"), IDEMPOTENCY));
        assertTrue(request.read(headerRO, beginEx(":method", "GET", ":path", "/i"), IDEMPOTENCY));
        assertEquals("/i", request.path());
        assertEquals(-1, request.contentLength);
        assertFalse(request.respondAsync);
        assertEquals(-1, request.preferWait);
        assertNull(request.ifNoneMatch);
        assertFalse(request.hasIdempotencyKey());
        assertEquals(List.of(":method=GET", ":path=/i"), headers());
    }

    @Test
    void shouldRefuseARequestWithoutMethodOrPathAndReadBadNumbersAsNone()
    {
        assertFalse(request.read(headerRO, beginEx(":method", "GET"), IDEMPOTENCY));
        assertFalse(request.read(headerRO, beginEx(":path", "/"), IDEMPOTENCY));
        assertTrue(request.read(headerRO, beginEx(":method", "BREW", ":path", "/", "content-length", "1x",
            "prefer", "wait=soon"), IDEMPOTENCY));
        assertEquals("BREW", request.method, "a method HTTP does not define, as it came");
        assertEquals(-1, request.contentLength);
        assertEquals(-1, request.preferWait);
    }

    private List<String> headers()
    {
        final List<String> headers = new ArrayList<>();
        final HttpKafkaHeaderTable table = request.headers();
        for (int i = 0; i < table.count(); i++)
        {
            headers.add(request.head().getStringWithoutLengthUtf8(table.nameOffset(i), table.nameLength(i)) + "="
                + request.head().getStringWithoutLengthUtf8(table.valueOffset(i), table.valueLength(i)));
        }
        return headers;
    }

    private static HttpBeginExFW beginEx(String... namesAndValues)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[1024]);
        final HttpBeginExFW.Builder builder = new HttpBeginExFW.Builder().wrap(buffer, 0, buffer.capacity())
            .typeId(HttpKafkaProxyFactory.HTTP_TYPE_ID);
        for (int i = 0; i < namesAndValues.length; i += 2)
        {
            final String name = namesAndValues[i];
            final String value = namesAndValues[i + 1];
            builder.headersItem(h -> h.name(name).value(value));
        }
        return builder.build();
    }
}
