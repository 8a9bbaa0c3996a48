/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental parser of HTTP/1.1 responses on a keep-alive connection, one after the other: the status line, the
 * headers (each line gathered into one buffer of its own, grown to the longest line seen, so that nothing is
 * allocated per response), then the body of its {@code Content-Length}, chunked, or none (a 204, a 304, a response
 * to a {@code HEAD}). {@code Connection: close} or a body up to the end of the connection ends the connection with
 * the response. Body bytes and headers go to the request's {@link HttpRequest.Listener}.
 */
final class Http1ResponseParser
{
    private static final int MAX_LINE = 16 << 10;
    private static final byte[] CONTENT_LENGTH = "content-length".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] TRANSFER_ENCODING = "transfer-encoding".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] CONNECTION = "connection".getBytes(StandardCharsets.US_ASCII);

    private enum State
    {
        STATUS, HEADER, BODY, CHUNK_SIZE, CHUNK_DATA, CHUNK_DATA_END, TRAILER, UNTIL_CLOSE
    }

    private State state = State.STATUS;
    private byte[] line = new byte[256];
    private int lineLength;
    private int status;
    private long contentLength;
    private boolean chunked;
    private boolean close;
    private long remaining;
    private HttpRequest.Listener listener;

    /** Expects the response to a new request, after the previous one ended. */
    void expect(HttpRequest.Listener listener)
    {
        this.listener = listener;
        state = State.STATUS;
        lineLength = 0;
        status = 0;
        contentLength = -1;
        chunked = false;
        close = false;
    }

    /** Whether the connection must close after the response (it said so, or its body runs to the close). */
    boolean closeAfter()
    {
        return close;
    }

    /** Whether the response's body runs to the end of the connection (no length and not chunked). */
    boolean untilClose()
    {
        return state == State.UNTIL_CLOSE;
    }

    int status()
    {
        return status;
    }

    /**
     * Parses what came; stops at the end of the response.
     *
     * @return the bytes taken, or -(taken + 1) when the response ended with them (the rest, if any, is unexpected)
     * @throws IllegalStateException on a response that is not HTTP/1.1
     */
    int parse(byte[] buffer, int offset, int length)
    {
        int index = offset;
        final int limit = offset + length;
        while (index < limit)
        {
            switch (state)
            {
                case BODY, CHUNK_DATA ->
                {
                    final int taken = (int) Math.min(remaining, limit - index);
                    listener.onBody(buffer, index, taken);
                    index += taken;
                    remaining -= taken;
                    if (remaining == 0)
                    {
                        if (state == State.BODY)
                        {
                            return -(index - offset + 1);
                        }
                        state = State.CHUNK_DATA_END;
                    }
                }
                case UNTIL_CLOSE ->
                {
                    listener.onBody(buffer, index, limit - index);
                    index = limit;
                }
                default ->
                {
                    final byte b = buffer[index++];
                    if (b != '\n')
                    {
                        if (lineLength == line.length)
                        {
                            if (lineLength == MAX_LINE)
                            {
                                throw new IllegalStateException("response line longer than " + MAX_LINE + " bytes");
                            }
                            line = Arrays.copyOf(line, Math.min(MAX_LINE, line.length * 2));
                        }
                        line[lineLength++] = b;
                        continue;
                    }
                    final int end = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
                    lineLength = 0;
                    if (onLine(end))
                    {
                        return -(index - offset + 1);
                    }
                }
            }
        }
        return index - offset;
    }

    /** One line of the head or of the chunked framing; returns whether the response ended with it. */
    private boolean onLine(int length)
    {
        switch (state)
        {
            case STATUS:
                if (length < 12 || line[0] != 'H' || line[4] != '/' || line[8] != ' ')
                {
                    throw new IllegalStateException("not an HTTP/1.x status line");
                }
                status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
                close = line[7] == '0'; // HTTP/1.0 closes unless it says keep-alive; we never ask it to
                state = State.HEADER;
                return false;
            case HEADER:
                return length == 0 ? onHeadEnd() : onHeader(length);
            case CHUNK_SIZE:
            {
                long size = 0;
                int digits = 0;
                for (int i = 0; i < length; i++)
                {
                    final int digit = Character.digit(line[i], 16);
                    if (digit < 0)
                    {
                        break;
                    }
                    size = (size << 4) | digit;
                    digits++;
                }
                if (digits == 0 || digits > 15)
                {
                    throw new IllegalStateException("bad chunk size");
                }
                remaining = size;
                state = size == 0 ? State.TRAILER : State.CHUNK_DATA;
                return false;
            }
            case CHUNK_DATA_END:
                if (length != 0)
                {
                    throw new IllegalStateException("chunk without its CRLF");
                }
                state = State.CHUNK_SIZE;
                return false;
            case TRAILER:
                return length == 0;
            default:
                throw new IllegalStateException(state.name());
        }
    }

    private boolean onHeader(int length)
    {
        int colon = 0;
        while (colon < length && line[colon] != ':')
        {
            colon++;
        }
        if (colon == length)
        {
            throw new IllegalStateException("header line without a colon");
        }
        int value = colon + 1;
        while (value < length && (line[value] == ' ' || line[value] == '\t'))
        {
            value++;
        }
        int valueEnd = length;
        while (valueEnd > value && (line[valueEnd - 1] == ' ' || line[valueEnd - 1] == '\t'))
        {
            valueEnd--;
        }
        if (is(CONTENT_LENGTH, colon))
        {
            long parsed = 0;
            for (int i = value; i < valueEnd; i++)
            {
                if (line[i] < '0' || line[i] > '9' || parsed > (Long.MAX_VALUE - 9) / 10)
                {
                    throw new IllegalStateException("bad content-length");
                }
                parsed = parsed * 10 + line[i] - '0';
            }
            contentLength = parsed;
        }
        else if (is(TRANSFER_ENCODING, colon))
        {
            chunked = endsWithIgnoreCase(value, valueEnd, "chunked");
        }
        else if (is(CONNECTION, colon))
        {
            close = endsWithIgnoreCase(value, valueEnd, "close");
        }
        listener.onHeader(line, 0, colon, value, valueEnd - value);
        return false;
    }

    private boolean onHeadEnd()
    {
        if (status / 100 == 1)
        {
            // an interim response (100 Continue): the final one follows
            state = State.STATUS;
            return false;
        }
        if (status == 204 || status == 304)
        {
            return true;
        }
        if (chunked)
        {
            state = State.CHUNK_SIZE;
            return false;
        }
        if (contentLength >= 0)
        {
            remaining = contentLength;
            state = State.BODY;
            return contentLength == 0;
        }
        close = true;
        state = State.UNTIL_CLOSE;
        return false;
    }

    private boolean is(byte[] name, int length)
    {
        if (length != name.length)
        {
            return false;
        }
        for (int i = 0; i < length; i++)
        {
            if ((line[i] | 0x20) != name[i])
            {
                return false;
            }
        }
        return true;
    }

    private boolean endsWithIgnoreCase(int from, int to, String suffix)
    {
        if (to - from < suffix.length())
        {
            return false;
        }
        for (int i = 0; i < suffix.length(); i++)
        {
            if ((line[to - suffix.length() + i] | 0x20) != suffix.charAt(i))
            {
                return false;
            }
        }
        return true;
    }
}
