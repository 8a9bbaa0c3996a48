/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import org.agrona.DirectBuffer;

/**
 * Reads an HTTP/1.1 message body (RFC 9112 sections 6 and 7) as its framing says: a Content-Length, chunked (with
 * its trailers) or, for a response, up to the connection's end. The bytes go to a {@link Sink} as far as it takes
 * them, so that a body moves only within the credit of whoever receives it; nothing is copied here.
 */
final class Http1BodyDecoder
{
    private static final int NONE = 0;
    private static final int LENGTH = 1;
    private static final int CHUNK_SIZE = 2;
    private static final int CHUNK_DATA = 3;
    private static final int CHUNK_END = 4;
    private static final int TRAILERS = 5;
    private static final int UNTIL_CLOSE = 6;

    private static final int MAX_CHUNK_LINE = 1024;

    /** Where a body goes. */
    interface Sink
    {
        /** Takes what it can of the body's bytes; returns how many (0 when it has no room now). */
        int onBodyData(long traceId, DirectBuffer buffer, int offset, int length);

        /** The body is complete; {@code trailers} is an HttpEndEx of its trailers, or null. */
        void onBodyEnd(long traceId, DirectBuffer trailers, int offset, int length);

        /** The body's framing is malformed. */
        void onBodyError(long traceId);
    }

    private final HttpHeaderListWriter trailers;
    private final int maxTrailers;
    private int state = NONE;
    private long remaining;

    Http1BodyDecoder(HttpHeaderListWriter trailers, int maxTrailers)
    {
        this.trailers = trailers;
        this.maxTrailers = maxTrailers;
    }

    boolean active()
    {
        return state != NONE;
    }

    void startLength(long length)
    {
        remaining = length;
        state = LENGTH;
    }

    void startChunked()
    {
        state = CHUNK_SIZE;
    }

    void startUntilClose()
    {
        state = UNTIL_CLOSE;
    }

    void reset()
    {
        state = NONE;
    }

    /** The connection ended: a body read up to its end is complete, any other is cut short. */
    void onClose(long traceId, Sink sink)
    {
        final int was = state;
        state = NONE;
        if (was == UNTIL_CLOSE)
        {
            sink.onBodyEnd(traceId, null, 0, 0);
        }
        else if (was != NONE)
        {
            sink.onBodyError(traceId);
        }
    }

    /** Reads body bytes from {@code offset}; returns how far it got (the limit after an error). */
    int decode(long traceId, DirectBuffer buffer, int offset, int limit, Sink sink)
    {
        int progress = offset;
        loop:
        while (progress < limit)
        {
            switch (state)
            {
                case LENGTH, CHUNK_DATA, UNTIL_CLOSE ->
                {
                    final int length = (int) (state == UNTIL_CLOSE ? limit - progress : Math.min(limit - progress, remaining));
                    final int taken = sink.onBodyData(traceId, buffer, progress, length);
                    if (taken <= 0)
                    {
                        break loop;
                    }
                    progress += taken;
                    remaining -= taken;
                    if (state != UNTIL_CLOSE && remaining == 0)
                    {
                        if (state == LENGTH)
                        {
                            state = NONE;
                            sink.onBodyEnd(traceId, null, 0, 0);
                            break loop;
                        }
                        state = CHUNK_END;
                    }
                }
                case CHUNK_SIZE ->
                {
                    final int end = Http1RequestParser.lineEnd(buffer, progress, limit);
                    if (end == -1)
                    {
                        if (limit - progress > MAX_CHUNK_LINE)
                        {
                            return error(traceId, limit, sink);
                        }
                        break loop;
                    }
                    final long size = end < 0 ? -1 : chunkSize(buffer, progress, end - 1);
                    if (size < 0)
                    {
                        return error(traceId, limit, sink);
                    }
                    progress = end + 1;
                    remaining = size;
                    state = size == 0 ? TRAILERS : CHUNK_DATA;
                }
                case CHUNK_END ->
                {
                    if (limit - progress < 2)
                    {
                        break loop;
                    }
                    if (buffer.getByte(progress) != '\r' || buffer.getByte(progress + 1) != '\n')
                    {
                        return error(traceId, limit, sink);
                    }
                    progress += 2;
                    state = CHUNK_SIZE;
                }
                case TRAILERS ->
                {
                    final int end = trailers(buffer, progress, limit);
                    if (end == 0)
                    {
                        break loop;
                    }
                    if (end < 0)
                    {
                        return error(traceId, limit, sink);
                    }
                    final int length = trailers.end();
                    final boolean any = end - progress > 2;
                    state = NONE;
                    progress = end;
                    sink.onBodyEnd(traceId, any ? trailers.buffer() : null, 0, any ? length : 0);
                    break loop;
                }
                default ->
                {
                    break loop;
                }
            }
        }
        return progress;
    }

    private int error(long traceId, int limit, Sink sink)
    {
        state = NONE;
        sink.onBodyError(traceId);
        return limit;
    }

    /** Reads a trailer section into {@link #trailers}; returns where it ends, 0 when incomplete, -1 when malformed. */
    private int trailers(DirectBuffer buffer, int offset, int limit)
    {
        final HttpHeaderListWriter writer = trailers.begin();
        int index = offset;
        while (true)
        {
            final int end = Http1RequestParser.lineEnd(buffer, index, limit);
            if (end == -1)
            {
                return limit - offset > maxTrailers ? -1 : 0;
            }
            if (end < 0)
            {
                return -1;
            }
            if (end - 1 == index)
            {
                return end + 1;
            }
            final int colon = Http1RequestParser.headerLine(buffer, index, end - 1);
            if (colon < 0)
            {
                return -1;
            }
            final int valueStart = Http1RequestParser.valueStart(buffer, colon + 1, end - 1);
            final int valueEnd = Http1RequestParser.valueEnd(buffer, valueStart, end - 1);
            writer.header(buffer, index, colon - index, buffer, valueStart, valueEnd - valueStart);
            index = end + 1;
        }
    }

    /** chunk-size [ chunk-ext ] up to the CR at {@code crlf}: the size, or -1 when malformed. */
    static long chunkSize(DirectBuffer buffer, int offset, int crlf)
    {
        long size = 0;
        int index = offset;
        while (index < crlf)
        {
            final byte b = buffer.getByte(index);
            final int digit = b >= '0' && b <= '9' ? b - '0' : b >= 'a' && b <= 'f' ? b - 'a' + 10
                : b >= 'A' && b <= 'F' ? b - 'A' + 10 : -1;
            if (digit < 0)
            {
                break;
            }
            if (index - offset == 15)
            {
                return -1;
            }
            size = size << 4 | digit;
            index++;
        }
        if (index == offset)
        {
            return -1;
        }
        if (index == crlf)
        {
            return size;
        }
        // a chunk extension is ignored (RFC 9112 section 7.1.1), but must start as one: whitespace (BWS) may come
        // before its ';' only, so that a size line that parsers read differently ("3 ") is refused, not guessed at
        while (index < crlf && (buffer.getByte(index) == ' ' || buffer.getByte(index) == '\t'))
        {
            index++;
        }
        return index < crlf && buffer.getByte(index) == ';' ? size : -1;
    }
}
