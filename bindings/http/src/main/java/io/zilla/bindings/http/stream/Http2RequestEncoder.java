/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static java.nio.charset.StandardCharsets.US_ASCII;

import io.zilla.bindings.http.codec.hpack.HpackEncoder;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpEndExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * HPACK-encodes the header list of a request (an HttpBeginEx) or of its trailers (an HttpEndEx) for an HTTP/2 client
 * connection, into the shared block buffer: the request's pseudo-headers first, in the order RFC 9113 8.3.1 lists
 * them ({@code :scheme} {@code http} when the list has none, {@code :authority} from {@code host} when it has none),
 * then the other fields, names in lower case, without those that belong to an HTTP/1.1 connection ({@code host}
 * included, as {@code :authority} carries it) and {@code te} other than {@code trailers}. One per binding and worker;
 * allocates nothing.
 */
final class Http2RequestEncoder
{
    private static final DirectBuffer METHOD = ascii(":method");
    private static final DirectBuffer SCHEME = ascii(":scheme");
    private static final DirectBuffer AUTHORITY = ascii(":authority");
    private static final DirectBuffer PATH = ascii(":path");
    private static final DirectBuffer HTTP = ascii("http");

    private final Http1HeaderEncoder headers;

    Http2RequestEncoder(Http1HeaderEncoder headers)
    {
        this.headers = headers;
    }

    /** Returns the block's length in {@code shared.block}, or -1 without {@code :method} or {@code :path}, or too large. */
    int encode(HpackEncoder encoder, Http2Shared shared, HttpBeginExFW request)
    {
        final HttpHeaderFW method = headers.find(request, ":method");
        final HttpHeaderFW path = method != null ? headers.find(request, ":path") : null;
        if (path == null)
        {
            return -1;
        }
        final MutableDirectBuffer block = shared.block;
        final int capacity = block.capacity();
        int cursor = encoder.beginBlock(block, 0);
        cursor = field(encoder, block, cursor, capacity, METHOD, headers.find(request, ":method").value());
        final HttpHeaderFW scheme = headers.find(request, ":scheme");
        cursor = scheme != null ? field(encoder, block, cursor, capacity, SCHEME, scheme.value())
            : cursor < 0 ? -1 : encoder.encode(block, cursor, capacity, SCHEME, 0, SCHEME.capacity(), HTTP, 0,
                HTTP.capacity(), false);
        HttpHeaderFW authority = headers.find(request, ":authority");
        if (authority == null)
        {
            authority = headers.find(request, "host");
        }
        if (authority != null)
        {
            cursor = field(encoder, block, cursor, capacity, AUTHORITY, authority.value());
        }
        cursor = field(encoder, block, cursor, capacity, PATH, headers.find(request, ":path").value());
        return fields(encoder, shared, cursor, request.buffer(), request.headers().offset() + Integer.BYTES,
            request.headers().count(), request.limit());
    }

    /** Returns the trailers' block length in {@code shared.block}, or -1 when too large. */
    int encodeTrailers(HpackEncoder encoder, Http2Shared shared, HttpEndExFW trailers)
    {
        final int cursor = encoder.beginBlock(shared.block, 0);
        return fields(encoder, shared, cursor, trailers.buffer(), trailers.trailers().offset() + Integer.BYTES,
            trailers.trailers().count(), trailers.limit());
    }

    // the regular fields of a header list, each HPACK-encoded after cursor
    private int fields(HpackEncoder encoder, Http2Shared shared, int cursor, DirectBuffer buffer, int offset, int count,
        int limit)
    {
        final MutableDirectBuffer block = shared.block;
        final MutableDirectBuffer lower = shared.name;
        int at = offset;
        for (int i = 0; i < count && cursor >= 0; i++)
        {
            final HttpHeaderFW header = headers.headerAt(buffer, at, limit);
            at = header.limit();
            final String16FW name = header.name();
            final String16FW value = header.value();
            final int nameLength = name.length();
            if (nameLength == 0 || nameLength > lower.capacity() || name.buffer().getByte(name.valueOffset()) == ':'
                || Http1Server.isHopByHop(name.buffer(), name.valueOffset(), nameLength)
                && !(HttpRequestHead.equalsIgnoreCase(name.buffer(), name.valueOffset(), nameLength, "te")
                && HttpRequestHead.equalsIgnoreCase(value.buffer(), value.valueOffset(), value.length(), "trailers")))
            {
                continue;
            }
            for (int j = 0; j < nameLength; j++)
            {
                lower.putByte(j, HttpRequestHead.toLower(name.buffer().getByte(name.valueOffset() + j)));
            }
            cursor = encoder.encode(block, cursor, block.capacity(), lower, 0, nameLength, value.buffer(),
                value.valueOffset(), value.length(), false);
        }
        return cursor;
    }

    private static int field(HpackEncoder encoder, MutableDirectBuffer block, int cursor, int capacity, DirectBuffer name,
        String16FW value)
    {
        return cursor < 0 ? -1 : encoder.encode(block, cursor, capacity, name, 0, name.capacity(), value.buffer(),
            value.valueOffset(), value.length(), false);
    }

    private static DirectBuffer ascii(String text)
    {
        return new UnsafeBuffer(text.getBytes(US_ASCII));
    }
}
