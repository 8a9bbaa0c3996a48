/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * An HTTP/1.1 keep-alive connection: one request in flight at a time (no pipelining, as browsers and most clients
 * do), so a producer keeps a pool of them. A request is its head ({@code Host}, {@code Content-Type} and
 * {@code Content-Length} for a POST, its extra headers) and body, written in one write; its response is parsed by
 * {@link Http1ResponseParser}. A response that ends the connection ({@code Connection: close}) is answered, then the
 * connection is opened again at once.
 */
final class Http1Connection extends HttpConnection
{
    private static final byte[] POST = "POST ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] GET = "GET ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] VERSION_HOST = " HTTP/1.1\r\nHost: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] BODY_HEADERS = "\r\nContent-Type: application/octet-stream\r\nContent-Length: "
        .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CRLF = {'\r', '\n'};
    private static final byte[] COLON = {':', ' '};

    private final byte[] authority;
    private final Http1ResponseParser parser = new Http1ResponseParser();
    private final byte[] digits = new byte[20];
    private HttpRequest current;

    Http1Connection(HttpLoadClient.SelectorThread thread, HttpTarget target)
    {
        super(thread, target, 4096);
        this.authority = target.authority.getBytes(StandardCharsets.US_ASCII);
    }

    @Override
    boolean canTake()
    {
        return connected && current == null;
    }

    @Override
    int inFlight()
    {
        return current != null ? 1 : 0;
    }

    @Override
    void onConnected()
    {
        // nothing to send first: the next pump gives this connection its request
    }

    @Override
    void take(HttpRequest request)
    {
        current = request;
        parser.expect(request.listener);
        int headers = 0;
        if (request.headers != null)
        {
            for (byte[] header : request.headers)
            {
                headers += header.length + 2;
            }
        }
        reserve(POST.length + request.path.length + VERSION_HOST.length + authority.length + BODY_HEADERS.length
            + digits.length + headers + 4 + (request.body != null ? request.body.length : 0));
        final ByteBuffer out = writeBuffer;
        out.put(request.post ? POST : GET).put(request.path).put(VERSION_HOST).put(authority);
        if (request.post)
        {
            out.put(BODY_HEADERS);
            putDigits(out, request.body.length);
        }
        if (request.headers != null)
        {
            for (int i = 0; i + 1 < request.headers.length; i += 2)
            {
                out.put(CRLF).put(request.headers[i]).put(COLON).put(request.headers[i + 1]);
            }
        }
        out.put(CRLF).put(CRLF);
        if (request.post)
        {
            out.put(request.body);
        }
    }

    @Override
    void onRead(ByteBuffer buffer) throws IOException
    {
        if (current == null)
        {
            throw new IOException("a response without a request");
        }
        final int taken = parser.parse(buffer.array(), buffer.position(), buffer.remaining());
        if (taken < 0)
        {
            if (-taken - 1 != buffer.remaining())
            {
                throw new IOException("bytes after the response to the one request in flight");
            }
            final HttpRequest answered = current;
            current = null;
            final boolean close = parser.closeAfter();
            answered.listener.onResponse(parser.status());
            if (close)
            {
                close();
                connect();
            }
        }
    }

    @Override
    void onEndOfStream()
    {
        if (current != null && parser.untilClose())
        {
            // a body up to the end of the connection: the end is the response's
            final HttpRequest answered = current;
            current = null;
            answered.listener.onResponse(parser.status());
            close();
            connect();
            return;
        }
        super.onEndOfStream();
    }

    @Override
    void failInFlight(Throwable cause)
    {
        final HttpRequest failed = current;
        current = null;
        if (failed != null)
        {
            failed.listener.onFailure(cause);
        }
    }

    private void putDigits(ByteBuffer out, int value)
    {
        int length = 0;
        int rest = value;
        do
        {
            digits[length++] = (byte) ('0' + rest % 10);
            rest /= 10;
        }
        while (rest != 0);
        for (int i = length - 1; i >= 0; i--)
        {
            out.put(digits[i]);
        }
    }
}
