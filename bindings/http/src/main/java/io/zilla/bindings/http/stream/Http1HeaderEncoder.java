/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;

/**
 * Reads a header list (HttpBeginEx) for an HTTP/1.1 head: finds a header by name, and writes the header lines,
 * leaving out the pseudo-headers and those that belong to one HTTP/1.1 connection. Reads in place.
 */
final class Http1HeaderEncoder
{
    /** {@link #write} saw a content-length. */
    static final int CONTENT_LENGTH = 1;
    /** {@link #write} saw {@code connection: close}. */
    static final int CONNECTION_CLOSE = 2;

    private final HttpHeaderFW headerRO = new HttpHeaderFW();

    /** The first header named {@code name} (lower case), or null. */
    HttpHeaderFW find(HttpBeginExFW headers, String name)
    {
        final int count = headers.headers().count();
        int offset = headers.headers().offset() + Integer.BYTES;
        for (int i = 0; i < count; i++)
        {
            final HttpHeaderFW header = headerRO.wrap(headers.buffer(), offset, headers.limit());
            offset = header.limit();
            final String16FW headerName = header.name();
            if (HttpRequestHead.equalsAscii(headerName.buffer(), headerName.valueOffset(), headerName.length(), name))
            {
                return header;
            }
        }
        return null;
    }

    /** Writes {@code name: value} lines; returns {@link #CONTENT_LENGTH} and {@link #CONNECTION_CLOSE} as seen. */
    int write(HttpAsciiWriter out, HttpBeginExFW headers)
    {
        int seen = 0;
        final int count = headers.headers().count();
        int offset = headers.headers().offset() + Integer.BYTES;
        for (int i = 0; i < count; i++)
        {
            final HttpHeaderFW header = headerRO.wrap(headers.buffer(), offset, headers.limit());
            offset = header.limit();
            final String16FW name = header.name();
            final String16FW value = header.value();
            if (skipped(name))
            {
                if (HttpRequestHead.equalsIgnoreCase(name.buffer(), name.valueOffset(), name.length(), "connection")
                    && HttpRequestHead.equalsIgnoreCase(value.buffer(), value.valueOffset(), value.length(), "close"))
                {
                    seen |= CONNECTION_CLOSE;
                }
                continue;
            }
            if (HttpRequestHead.equalsIgnoreCase(name.buffer(), name.valueOffset(), name.length(), "content-length"))
            {
                seen |= CONTENT_LENGTH;
            }
            out.bytes(name.buffer(), name.valueOffset(), name.length()).text(": ")
                .bytes(value.buffer(), value.valueOffset(), value.length()).crlf();
        }
        return seen;
    }

    /** Writes the names of the headers {@link #write} writes, comma-separated; false when there are none. */
    boolean writeNames(HttpAsciiWriter out, String prefix, HttpBeginExFW headers)
    {
        boolean first = true;
        final int count = headers.headers().count();
        int offset = headers.headers().offset() + Integer.BYTES;
        for (int i = 0; i < count; i++)
        {
            final HttpHeaderFW header = headerRO.wrap(headers.buffer(), offset, headers.limit());
            offset = header.limit();
            final String16FW name = header.name();
            if (!skipped(name))
            {
                out.text(first ? prefix : ", ").bytes(name.buffer(), name.valueOffset(), name.length());
                first = false;
            }
        }
        return !first;
    }

    /** The header at {@code offset} of a header list in {@code buffer}, read in place. */
    HttpHeaderFW headerAt(DirectBuffer buffer, int offset, int limit)
    {
        return headerRO.wrap(buffer, offset, limit);
    }

    private static boolean skipped(String16FW name)
    {
        return name.length() == 0 || name.buffer().getByte(name.valueOffset()) == ':'
            || Http1Server.isHopByHop(name.buffer(), name.valueOffset(), name.length());
    }
}
