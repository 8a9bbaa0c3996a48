/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.bindings.http.stream.HttpRequestHead.equalsIgnoreCase;

import org.agrona.DirectBuffer;

/**
 * Reads an HTTP/1.x request line and header block (RFC 9112) in place, strictly: anything that two parsers could
 * read two ways (the request-smuggling shapes) is refused rather than guessed at. It returns where the head ends,
 * {@link #INCOMPLETE}, {@link #PREFACE} for HTTP/2's prior-knowledge preface, {@link #NOT_HTTP} for a request line
 * whose version is not HTTP's at all (a peer that speaks something else, or a bad HTTP/2 preface), or the status to
 * refuse it with, as
 * a negative number: -400 (malformed, bare LF, obs-fold, a space before a colon, conflicting framing), -414 (a
 * request line longer than the limit), -431 (a head longer than the limit), -417 (an Expect other than
 * 100-continue), -501 (a transfer coding other than chunked), -505 (an HTTP major version other than 1).
 */
final class Http1RequestParser
{
    static final int INCOMPLETE = 0;
    static final int PREFACE = -2;
    static final int NOT_HTTP = -3;

    static final int BAD_REQUEST = -400;
    static final int URI_TOO_LONG = -414;
    static final int EXPECTATION_FAILED = -417;
    static final int HEADERS_TOO_LARGE = -431;
    static final int NOT_IMPLEMENTED = -501;
    static final int VERSION_NOT_SUPPORTED = -505;

    // tchar (RFC 9110 section 5.6.2)
    private static final boolean[] TCHAR = new boolean[128];

    static
    {
        for (char c = '0'; c <= '9'; c++)
        {
            TCHAR[c] = true;
        }
        for (char c = 'a'; c <= 'z'; c++)
        {
            TCHAR[c] = true;
            TCHAR[c - 32] = true;
        }
        for (char c : "!#$%&'*+-.^_`|~".toCharArray())
        {
            TCHAR[c] = true;
        }
    }

    private Http1RequestParser()
    {
    }

    /**
     * @param maxSize the most bytes the request line and headers may take
     * @return the index after the head's empty line, {@link #INCOMPLETE}, {@link #PREFACE}, {@link #NOT_HTTP} or a
     *     negative status
     */
    static int parse(DirectBuffer buffer, int offset, int limit, int maxSize, HttpRequestHead head)
    {
        head.reset(buffer);
        final int lineEnd = lineEnd(buffer, offset, limit);
        if (lineEnd < 0)
        {
            return limit - offset > maxSize ? URI_TOO_LONG : lineEnd == -1 ? INCOMPLETE : BAD_REQUEST;
        }
        if (lineEnd + 1 - offset > maxSize)
        {
            return URI_TOO_LONG;
        }
        final int status = requestLine(buffer, offset, lineEnd - 1, head);
        if (status != 0)
        {
            return status;
        }
        final int end = headers(buffer, offset, lineEnd + 1, limit, maxSize, head);
        if (end > 0 && head.minorVersion == 1 && head.host < 0)
        {
            return BAD_REQUEST;
        }
        return end;
    }

    /**
     * Reads a response's status line and headers as {@link #parse} reads a request's; the status goes to
     * {@code head.status}.
     */
    static int parseResponse(DirectBuffer buffer, int offset, int limit, int maxSize, HttpRequestHead head)
    {
        head.reset(buffer);
        final int lineEnd = lineEnd(buffer, offset, limit);
        if (lineEnd < 0)
        {
            return limit - offset > maxSize ? HEADERS_TOO_LARGE : lineEnd == -1 ? INCOMPLETE : BAD_REQUEST;
        }
        // HTTP/1.x SP 3DIGIT SP [ reason ]
        if (lineEnd - offset < 13 || !HttpRequestHead.equalsAscii(buffer, offset, 7, "HTTP/1.")
            || !isDigit(buffer.getByte(offset + 7)) || buffer.getByte(offset + 8) != ' '
            || buffer.getByte(offset + 12) != ' ' && buffer.getByte(offset + 12) != '\r')
        {
            return BAD_REQUEST;
        }
        final long status = digits(buffer, offset + 9, 3);
        if (status < 100)
        {
            return BAD_REQUEST;
        }
        head.status = (int) status;
        head.minorVersion = buffer.getByte(offset + 7) == '0' ? 0 : 1;
        return headers(buffer, offset, lineEnd + 1, limit, maxSize, head);
    }

    // the header lines from index to the empty line; what the framing headers say goes to head
    private static int headers(DirectBuffer buffer, int offset, int start, int limit, int maxSize, HttpRequestHead head)
    {
        boolean transferEncoding = false;
        boolean chunkedLast = false;
        boolean otherCoding = false;
        int index = start;
        while (true)
        {
            final int end = lineEnd(buffer, index, limit);
            if (end == -1)
            {
                return limit - offset > maxSize ? HEADERS_TOO_LARGE : INCOMPLETE;
            }
            if (end < 0)
            {
                return BAD_REQUEST;
            }
            if (end + 1 - offset > maxSize)
            {
                return HEADERS_TOO_LARGE;
            }
            final int crlf = end - 1;
            if (crlf == index)
            {
                // the empty line: the head is complete
                break;
            }
            final int colon = headerLine(buffer, index, crlf);
            if (colon < 0)
            {
                return BAD_REQUEST;
            }
            final int valueStart = valueStart(buffer, colon + 1, crlf);
            final int valueEnd = valueEnd(buffer, valueStart, crlf);
            for (int i = valueStart; i < valueEnd; i++)
            {
                final byte b = buffer.getByte(i);
                if (b >= 0 && b < 0x20 && b != '\t' || b == 0x7f)
                {
                    return BAD_REQUEST;
                }
            }
            if (head.count == HttpRequestHead.MAX_HEADERS)
            {
                return HEADERS_TOO_LARGE;
            }
            final int h = head.count++;
            head.nameOffsets[h] = index;
            head.nameLengths[h] = colon - index;
            head.valueOffsets[h] = valueStart;
            head.valueLengths[h] = valueEnd - valueStart;

            final int nameLength = colon - index;
            final int valueLength = valueEnd - valueStart;
            if (equalsIgnoreCase(buffer, index, nameLength, "host"))
            {
                if (head.host >= 0)
                {
                    return BAD_REQUEST;
                }
                head.host = h;
            }
            else if (equalsIgnoreCase(buffer, index, nameLength, "content-length"))
            {
                final long length = digits(buffer, valueStart, valueLength);
                if (length < 0 || head.contentLength >= 0 && head.contentLength != length)
                {
                    return BAD_REQUEST;
                }
                head.contentLength = length;
            }
            else if (equalsIgnoreCase(buffer, index, nameLength, "transfer-encoding"))
            {
                transferEncoding = true;
                int tokenStart = valueStart;
                while (tokenStart <= valueEnd)
                {
                    int comma = tokenStart;
                    while (comma < valueEnd && buffer.getByte(comma) != ',')
                    {
                        comma++;
                    }
                    final int from = valueStart(buffer, tokenStart, comma);
                    final int to = valueEnd(buffer, from, comma);
                    if (to > from)
                    {
                        final boolean chunked = equalsIgnoreCase(buffer, from, to - from, "chunked");
                        if (chunked && chunkedLast)
                        {
                            // chunked twice
                            return BAD_REQUEST;
                        }
                        otherCoding |= !chunked;
                        chunkedLast = chunked;
                    }
                    tokenStart = comma + 1;
                }
            }
            else if (equalsIgnoreCase(buffer, index, nameLength, "connection"))
            {
                head.connectionClose |= containsToken(buffer, valueStart, valueEnd, "close");
                head.connectionKeepAlive |= containsToken(buffer, valueStart, valueEnd, "keep-alive");
            }
            else if (equalsIgnoreCase(buffer, index, nameLength, "expect"))
            {
                if (!equalsIgnoreCase(buffer, valueStart, valueLength, "100-continue"))
                {
                    return EXPECTATION_FAILED;
                }
                head.expectContinue = true;
            }
            else if (equalsIgnoreCase(buffer, index, nameLength, "upgrade"))
            {
                head.upgradeH2c |= containsToken(buffer, valueStart, valueEnd, "h2c");
            }
            else if (equalsIgnoreCase(buffer, index, nameLength, "origin"))
            {
                head.origin = h;
            }
            index = end + 1;
        }

        if (transferEncoding)
        {
            if (head.contentLength >= 0 || head.minorVersion == 0 || !chunkedLast)
            {
                // both framings, a transfer coding from an HTTP/1.0 peer, or one whose end cannot be found
                return BAD_REQUEST;
            }
            if (otherCoding)
            {
                return NOT_IMPLEMENTED;
            }
            head.chunked = true;
        }
        return index + 2;
    }

    /**
     * Checks a header line up to its CR: a name of token characters, then a colon. Returns the colon's index, or -1
     * for obs-fold (a line that starts with whitespace), a space before the colon or no colon.
     */
    static int headerLine(DirectBuffer buffer, int index, int crlf)
    {
        final byte first = buffer.getByte(index);
        if (first == ' ' || first == '\t')
        {
            // obs-fold (RFC 9112 section 5.2), or whitespace before the first header: refused
            return -1;
        }
        int colon = index;
        while (colon < crlf && buffer.getByte(colon) != ':')
        {
            final byte b = buffer.getByte(colon);
            if (b < 0 || !TCHAR[b])
            {
                // a space before the colon, or any other non-token byte in a name
                return -1;
            }
            colon++;
        }
        return colon == index || colon == crlf ? -1 : colon;
    }

    /** Where a value starts once its leading whitespace is skipped. */
    static int valueStart(DirectBuffer buffer, int index, int limit)
    {
        int start = index;
        while (start < limit && isOws(buffer.getByte(start)))
        {
            start++;
        }
        return start;
    }

    /** Where a value ends once its trailing whitespace is dropped. */
    static int valueEnd(DirectBuffer buffer, int start, int limit)
    {
        int end = limit;
        while (end > start && isOws(buffer.getByte(end - 1)))
        {
            end--;
        }
        return end;
    }

    // method SP request-target SP HTTP-version, up to the CR at crlf
    private static int requestLine(DirectBuffer buffer, int offset, int crlf, HttpRequestHead head)
    {
        int index = offset;
        while (index < crlf && buffer.getByte(index) != ' ')
        {
            final byte b = buffer.getByte(index);
            if (b < 0 || !TCHAR[b])
            {
                return BAD_REQUEST;
            }
            index++;
        }
        if (index == offset || index == crlf)
        {
            return BAD_REQUEST;
        }
        head.methodOffset = offset;
        head.methodLength = index - offset;
        final int targetStart = ++index;
        while (index < crlf && buffer.getByte(index) != ' ')
        {
            final byte b = buffer.getByte(index);
            if (b <= 0x20 || b == 0x7f)
            {
                return BAD_REQUEST;
            }
            index++;
        }
        if (index == targetStart || index == crlf)
        {
            return BAD_REQUEST;
        }
        head.targetOffset = targetStart;
        head.targetLength = index - targetStart;
        final int version = index + 1;
        if (crlf - version < 5 || !HttpRequestHead.equalsAscii(buffer, version, 5, "HTTP/"))
        {
            return NOT_HTTP;
        }
        if (crlf - version != 8 || !isDigit(buffer.getByte(version + 5)) || buffer.getByte(version + 6) != '.'
            || !isDigit(buffer.getByte(version + 7)))
        {
            return BAD_REQUEST;
        }
        final int major = buffer.getByte(version + 5) - '0';
        final int minor = buffer.getByte(version + 7) - '0';
        if (major == 2 && minor == 0 && head.targetLength == 1 && buffer.getByte(targetStart) == '*'
            && HttpRequestHead.equalsAscii(buffer, offset, head.methodLength, "PRI"))
        {
            return PREFACE;
        }
        if (major != 1)
        {
            return VERSION_NOT_SUPPORTED;
        }
        // HTTP/1.2 and later minors are read as 1.1 (RFC 9110 section 6.2)
        head.minorVersion = minor == 0 ? 0 : 1;
        return 0;
    }

    /**
     * The index of the LF that ends the line from {@code offset}: -1 when there is none yet, -2 when it is not
     * preceded by CR (a bare LF) or a CR stands alone in the line.
     */
    static int lineEnd(DirectBuffer buffer, int offset, int limit)
    {
        for (int i = offset; i < limit; i++)
        {
            final byte b = buffer.getByte(i);
            if (b == '\n')
            {
                return i > offset && buffer.getByte(i - 1) == '\r' ? i : -2;
            }
            if (b == '\r' && i + 1 < limit && buffer.getByte(i + 1) != '\n')
            {
                return -2;
            }
        }
        return -1;
    }

    /** The value of 1*DIGIT, or -1 when it is not one or is too large. */
    static long digits(DirectBuffer buffer, int offset, int length)
    {
        if (length == 0 || length > 18)
        {
            return -1;
        }
        long value = 0;
        for (int i = 0; i < length; i++)
        {
            final byte b = buffer.getByte(offset + i);
            if (!isDigit(b))
            {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    private static boolean containsToken(DirectBuffer buffer, int start, int end, String lower)
    {
        int index = start;
        while (index < end)
        {
            while (index < end && (isOws(buffer.getByte(index)) || buffer.getByte(index) == ','))
            {
                index++;
            }
            final int tokenStart = index;
            while (index < end && buffer.getByte(index) != ',' && !isOws(buffer.getByte(index)))
            {
                index++;
            }
            if (index > tokenStart && equalsIgnoreCase(buffer, tokenStart, index - tokenStart, lower))
            {
                return true;
            }
        }
        return false;
    }

    private static boolean isOws(byte b)
    {
        return b == ' ' || b == '\t';
    }

    private static boolean isDigit(byte b)
    {
        return b >= '0' && b <= '9';
    }
}
