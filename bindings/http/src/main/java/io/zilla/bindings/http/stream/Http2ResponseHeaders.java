/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.bindings.http.codec.hpack.HpackHeaderSink;
import org.agrona.DirectBuffer;

/**
 * Takes the decoded fields of a response's header block (or of its trailers) on an HTTP/2 client connection and writes
 * them into an http.idl header list: {@code :status} first, then the fields in their order. Checked as RFC 9113 8.3.2
 * and 8.2.2 ask: {@code :status} once, of three digits, before any other field, no other pseudo-header, names in lower
 * case, no NUL, CR or LF in values; connection-specific fields (which a server must not send) are dropped rather than
 * failing the response. Reused for every block: allocates nothing.
 */
final class Http2ResponseHeaders implements HpackHeaderSink
{
    private HttpHeaderListWriter writer;
    private boolean trailers;
    private boolean regularSeen;

    /** The block broke a rule; {@link #reason} says which. */
    boolean malformed;
    String reason;
    /** The response's status, -1 before {@code :status} came. */
    int status;

    /** Starts a block written into {@code writer}: a response's head, or its {@code trailers}. */
    void begin(HttpHeaderListWriter writer, boolean trailers)
    {
        this.writer = writer.begin();
        this.trailers = trailers;
        regularSeen = false;
        malformed = false;
        reason = null;
        status = -1;
    }

    /** Completes the block; returns the list's length, or -1 when it overflowed. */
    int end()
    {
        if (!malformed && !trailers && status < 0)
        {
            malformed("no :status");
        }
        return writer.end();
    }

    /** An interim (1xx) response: another head follows. */
    boolean interim()
    {
        return status >= 100 && status < 200;
    }

    @Override
    public void onHeader(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int valueOffset,
        int valueLength, boolean neverIndexed)
    {
        if (malformed)
        {
            return;
        }
        final String invalid = Http2RequestHeaders.invalidField(name, nameOffset, nameLength, value, valueOffset,
            valueLength);
        if (invalid != null)
        {
            malformed(invalid);
            return;
        }
        final boolean pseudo = name.getByte(nameOffset) == ':';
        if (pseudo)
        {
            onStatus(name, nameOffset, nameLength, value, valueOffset, valueLength);
        }
        else
        {
            regularSeen = true;
            if (!Http1Server.isHopByHop(name, nameOffset, nameLength))
            {
                writer.header(name, nameOffset, nameLength, value, valueOffset, valueLength);
            }
        }
    }

    private void onStatus(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int valueOffset,
        int valueLength)
    {
        if (trailers || regularSeen || status >= 0
            || !HttpRequestHead.equalsAscii(name, nameOffset, nameLength, ":status"))
        {
            malformed(trailers ? "a pseudo-header in trailers" : "a pseudo-header other than :status, or out of place");
            return;
        }
        final long parsed = valueLength == 3 ? Http1RequestParser.digits(value, valueOffset, 3) : -1;
        if (parsed < 100 || parsed > 999)
        {
            malformed("a :status that is not three digits");
            return;
        }
        status = (int) parsed;
        writer.header(name, nameOffset, nameLength, value, valueOffset, valueLength);
    }

    private void malformed(String why)
    {
        malformed = true;
        reason = why;
    }
}
