/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.http.kafka.config.HttpKafkaOptionsConfig;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * What an exchange keeps of its request's head, copied out of the HttpBeginEx when the request begins: the method,
 * the path (without its query), the headers this binding reads, and the headers a produced record carries (every
 * request header but the pseudo-headers other than :method and :path, the hop-by-hop ones and those that steer this
 * binding).
 */
final class HttpKafkaRequest
{
    private static final List<String> DROPPED = List.of(":scheme", ":authority", "connection", "keep-alive",
        "transfer-encoding", "te", "upgrade", "content-length", "prefer", "host", "http2-settings", "expect",
        "proxy-connection");

    String method;
    byte[] path;
    byte[] idempotencyKey;
    boolean respondAsync;
    int preferWait = -1;
    String ifNoneMatch;
    long contentLength = -1;
    String contentType;
    // the record's headers, name then value
    final List<byte[]> headers = new ArrayList<>();

    private UnsafeBuffer pathBuffer;

    static HttpKafkaRequest read(HttpKafkaProxyFactory factory, HttpBeginExFW beginEx, HttpKafkaOptionsConfig options)
    {
        final HttpKafkaRequest request = new HttpKafkaRequest();
        final int count = beginEx.headers().count();
        int offset = beginEx.headers().offset() + Integer.BYTES;
        for (int i = 0; i < count; i++)
        {
            final HttpHeaderFW header = factory.httpHeaderRO.tryWrap(beginEx.buffer(), offset, beginEx.limit());
            if (header == null)
            {
                return null;
            }
            offset = header.limit();
            final String name = header.name().asString();
            final String16FW value = header.value();
            switch (name)
            {
                case ":method" -> request.method = value.asString();
                case ":path" ->
                {
                    final String path = value.asString();
                    final int query = path.indexOf('?');
                    request.path = (query >= 0 ? path.substring(0, query) : path).getBytes(UTF_8);
                }
                case "prefer" -> request.prefer(value.asString());
                case "if-none-match" -> request.ifNoneMatch = value.asString();
                case "content-length" -> request.contentLength = parseLength(value.asString());
                case "content-type" -> request.contentType = value.asString();
                default ->
                {
                }
            }
            if (name.equals(options.idempotencyHeader()))
            {
                request.idempotencyKey = bytes(value);
            }
            if (!DROPPED.contains(name))
            {
                request.headers.add(name.getBytes(UTF_8));
                request.headers.add(bytes(value));
            }
        }
        if (request.method == null || request.path == null)
        {
            return null;
        }
        request.pathBuffer = new UnsafeBuffer(request.path);
        return request;
    }

    DirectBuffer pathBuffer()
    {
        return pathBuffer;
    }

    boolean produces()
    {
        return !"GET".equals(method) && !"HEAD".equals(method);
    }

    private static byte[] bytes(String16FW value)
    {
        final byte[] bytes = new byte[Math.max(value.length(), 0)];
        value.buffer().getBytes(value.valueOffset(), bytes);
        return bytes;
    }

    // Prefer: respond-async, wait=5 (RFC 7240): the preferences this binding honours, the others ignored
    private void prefer(String value)
    {
        for (String preference : value.split(","))
        {
            final String token = preference.trim();
            if (token.equalsIgnoreCase("respond-async"))
            {
                respondAsync = true;
            }
            else if (token.regionMatches(true, 0, "wait=", 0, 5))
            {
                try
                {
                    preferWait = Math.max(0, Integer.parseInt(token.substring(5).trim()));
                }
                catch (NumberFormatException ex)
                {
                    preferWait = -1;
                }
            }
        }
    }

    private static long parseLength(String value)
    {
        try
        {
            return Long.parseLong(value.trim());
        }
        catch (NumberFormatException ex)
        {
            return -1;
        }
    }
}
