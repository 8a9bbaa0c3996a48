/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import io.zilla.bindings.http.codec.hpack.HpackHeaderSink;
import org.agrona.DirectBuffer;

/**
 * Takes the fields of one decoded HTTP/2 header block (a request's, or its trailers') as HPACK hands them over, checks
 * them against RFC 9113 section 8.2 and 8.3 and writes them into a header list (an HttpBeginEx or HttpEndEx). A block
 * that breaks a rule is malformed: the stream is reset with PROTOCOL_ERROR. The rules: names in lower case and of
 * token characters; no NUL, CR or LF in a value; pseudo-headers before the other fields, each once, only the
 * request's four (and none in trailers); :method, :scheme and a non-empty :path present (CONNECT: :method and
 * :authority only); none of HTTP/1.1's connection-specific fields; {@code te} only as {@code trailers}; one
 * content-length of digits. Reused for every block: allocates nothing.
 */
final class Http2RequestHeaders implements HpackHeaderSink
{
    private static final int METHOD = 1;
    private static final int SCHEME = 2;
    private static final int AUTHORITY = 4;
    private static final int PATH = 8;

    private HttpHeaderListWriter writer;
    private boolean trailers;
    private boolean regularSeen;
    private int pseudoSeen;
    private boolean connectSeen;

    /** The block broke a rule; {@link #reason} says which. */
    boolean malformed;
    String reason;
    /** The request's content-length, -1 without one. */
    long contentLength;
    /** The request's method is HEAD: its response has no body. */
    boolean head;
    /** The method is OPTIONS: a CORS preflight when the other fields say so. */
    boolean options;

    /** Starts a block written into {@code writer}: a request's head, or its {@code trailers}. */
    void begin(HttpHeaderListWriter writer, boolean trailers)
    {
        this.writer = writer.begin();
        this.trailers = trailers;
        regularSeen = false;
        pseudoSeen = 0;
        malformed = false;
        reason = null;
        contentLength = -1;
        head = false;
        options = false;
        connectSeen = false;
    }

    /** Completes the block: checks the required pseudo-headers; returns the list's length, or -1 when it overflowed. */
    int end()
    {
        if (!malformed && !trailers)
        {
            final boolean connect = connectSeen;
            final int required = connect ? METHOD | AUTHORITY : METHOD | SCHEME | PATH;
            if ((pseudoSeen & required) != required || connect && (pseudoSeen & (SCHEME | PATH)) != 0)
            {
                malformed("a required pseudo-header is missing");
            }
        }
        return writer.end();
    }

    @Override
    public void onHeader(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int valueOffset,
        int valueLength, boolean neverIndexed)
    {
        if (malformed)
        {
            return;
        }
        final String invalid = invalidField(name, nameOffset, nameLength, value, valueOffset, valueLength);
        if (invalid != null)
        {
            malformed(invalid);
            return;
        }
        final boolean pseudo = name.getByte(nameOffset) == ':';
        if (pseudo)
        {
            onPseudoHeader(name, nameOffset, nameLength, value, valueOffset, valueLength);
        }
        else
        {
            onRegularHeader(name, nameOffset, nameLength, value, valueOffset, valueLength);
        }
    }

    private void onPseudoHeader(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int valueOffset,
        int valueLength)
    {
        if (trailers || regularSeen)
        {
            malformed(trailers ? "a pseudo-header in trailers" : "a pseudo-header after a regular field");
            return;
        }
        final int bit = HttpRequestHead.equalsAscii(name, nameOffset, nameLength, ":method") ? METHOD
            : HttpRequestHead.equalsAscii(name, nameOffset, nameLength, ":scheme") ? SCHEME
            : HttpRequestHead.equalsAscii(name, nameOffset, nameLength, ":authority") ? AUTHORITY
            : HttpRequestHead.equalsAscii(name, nameOffset, nameLength, ":path") ? PATH
            : 0;
        if (bit == 0 || (pseudoSeen & bit) != 0)
        {
            malformed(bit == 0 ? "an unknown or response pseudo-header" : "a pseudo-header twice");
            return;
        }
        pseudoSeen |= bit;
        if (bit == PATH && valueLength == 0)
        {
            malformed("an empty :path");
            return;
        }
        if (bit == METHOD)
        {
            head = HttpRequestHead.equalsAscii(value, valueOffset, valueLength, "HEAD");
            options = HttpRequestHead.equalsAscii(value, valueOffset, valueLength, "OPTIONS");
            connectSeen = HttpRequestHead.equalsAscii(value, valueOffset, valueLength, "CONNECT");
        }
        writer.header(name, nameOffset, nameLength, value, valueOffset, valueLength);
    }

    private void onRegularHeader(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int valueOffset,
        int valueLength)
    {
        regularSeen = true;
        if (HttpRequestHead.equalsAscii(name, nameOffset, nameLength, "connection")
            || HttpRequestHead.equalsAscii(name, nameOffset, nameLength, "keep-alive")
            || HttpRequestHead.equalsAscii(name, nameOffset, nameLength, "proxy-connection")
            || HttpRequestHead.equalsAscii(name, nameOffset, nameLength, "transfer-encoding")
            || HttpRequestHead.equalsAscii(name, nameOffset, nameLength, "upgrade"))
        {
            malformed("a connection-specific field");
            return;
        }
        if (HttpRequestHead.equalsAscii(name, nameOffset, nameLength, "te")
            && !HttpRequestHead.equalsAscii(value, valueOffset, valueLength, "trailers"))
        {
            malformed("te other than trailers");
            return;
        }
        if (!trailers && HttpRequestHead.equalsAscii(name, nameOffset, nameLength, "content-length"))
        {
            final long length = valueLength > 0 && valueLength <= 18
                ? Http1RequestParser.digits(value, valueOffset, valueLength) : -1;
            if (length < 0 || contentLength >= 0 && contentLength != length)
            {
                malformed("a bad content-length");
                return;
            }
            contentLength = length;
        }
        writer.header(name, nameOffset, nameLength, value, valueOffset, valueLength);
    }

    /**
     * Why a field breaks RFC 9113 8.2.1 (an empty name, an upper-case or invalid character in the name after a
     * pseudo-header's colon, NUL, CR or LF in the value), or null when it does not: for requests and responses.
     */
    static String invalidField(DirectBuffer name, int nameOffset, int nameLength, DirectBuffer value, int valueOffset,
        int valueLength)
    {
        if (nameLength == 0)
        {
            return "an empty field name";
        }
        final boolean pseudo = name.getByte(nameOffset) == ':';
        for (int i = pseudo ? 1 : 0; i < nameLength; i++)
        {
            final byte b = name.getByte(nameOffset + i);
            if (b >= 'A' && b <= 'Z' || b <= ' ' || b >= 0x7f || b == ':')
            {
                return "a field name with an upper-case or invalid character";
            }
        }
        for (int i = 0; i < valueLength; i++)
        {
            final byte b = value.getByte(valueOffset + i);
            if (b == 0 || b == '\r' || b == '\n')
            {
                return "a field value with NUL, CR or LF";
            }
        }
        return null;
    }

    private void malformed(String why)
    {
        malformed = true;
        reason = why;
    }
}
