/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;

/**
 * An incremental decoder of one HTTP/1.1 response to an SSE request: the head (status and headers, kept only until
 * it is complete), then the body, chunked ({@code Transfer-Encoding: chunked}: sizes in hex, extensions and trailers
 * skipped), of a {@code Content-Length}, or up to the end of the connection. Body bytes go to the event stream
 * parser as they come, wherever a read split the chunks.
 */
final class HttpResponseDecoder
{
    /** Where the decoder's findings go. */
    interface Handler
    {
        /** The head is complete: a 200 with a {@code text/event-stream} body, or not ({@code problem} says why). */
        void onHead(int status, String problem);

        void onBody(byte[] buffer, int offset, int length);

        /** The body ended (its last chunk, its length), the connection may be closed. */
        void onEnd();
    }

    private static final int MAX_HEAD_BYTES = 16 << 10;

    private enum State
    {
        HEAD, CHUNK_SIZE, CHUNK_EXTENSION, CHUNK_DATA, CHUNK_DATA_CR, CHUNK_DATA_LF, TRAILER, BODY, END
    }

    private final Handler handler;

    private State state = State.HEAD;
    private byte[] head = new byte[512];
    private int headLength;
    private long remaining;
    private boolean sizeDigits;
    private int trailerLineLength;

    HttpResponseDecoder(Handler handler)
    {
        this.handler = handler;
    }

    /** Starts over, for the response of a new connection. */
    void reset()
    {
        state = State.HEAD;
        headLength = 0;
        head = head != null ? head : new byte[512];
        remaining = 0;
    }

    boolean ended()
    {
        return state == State.END;
    }

    void decode(byte[] buffer, int offset, int length)
    {
        int index = offset;
        final int limit = offset + length;
        while (index < limit && state != State.END)
        {
            switch (state)
            {
                case HEAD:
                    index = decodeHead(buffer, index, limit);
                    break;
                case CHUNK_DATA:
                {
                    final int taken = (int) Math.min(remaining, limit - index);
                    handler.onBody(buffer, index, taken);
                    index += taken;
                    remaining -= taken;
                    if (remaining == 0)
                    {
                        state = State.CHUNK_DATA_CR;
                    }
                    break;
                }
                case BODY:
                {
                    final int taken = (int) Math.min(remaining, limit - index);
                    handler.onBody(buffer, index, taken);
                    index += taken;
                    remaining -= taken;
                    if (remaining == 0)
                    {
                        end();
                    }
                    break;
                }
                default:
                    decodeFraming(buffer[index++]);
                    break;
            }
        }
    }

    private void decodeFraming(byte b)
    {
        switch (state)
        {
            case CHUNK_SIZE:
                decodeChunkSize(b);
                break;
            case CHUNK_EXTENSION:
                if (b == '\n')
                {
                    endChunkSize();
                }
                break;
            case CHUNK_DATA_CR:
                state = b == '\r' ? State.CHUNK_DATA_LF : b == '\n' ? State.CHUNK_SIZE : fail("chunk without its CRLF");
                startChunkSize();
                break;
            case CHUNK_DATA_LF:
                state = b == '\n' ? State.CHUNK_SIZE : fail("chunk without its CRLF");
                break;
            case TRAILER:
                if (b == '\n')
                {
                    if (trailerLineLength == 0)
                    {
                        end();
                    }
                    trailerLineLength = 0;
                }
                else if (b != '\r')
                {
                    trailerLineLength++;
                }
                break;
            default:
                throw new IllegalStateException(state.name());
        }
    }

    private void decodeChunkSize(byte b)
    {
        final int digit = Character.digit(b, 16);
        if (digit >= 0)
        {
            if (remaining > (Long.MAX_VALUE >> 4))
            {
                throw new IllegalStateException("chunk size too large");
            }
            remaining = (remaining << 4) | digit;
            sizeDigits = true;
        }
        else if (b == '\n')
        {
            endChunkSize();
        }
        else if (sizeDigits && (b == ';' || b == '\r' || b == ' ' || b == '\t'))
        {
            state = State.CHUNK_EXTENSION;
        }
        else
        {
            throw new IllegalStateException("bad chunk size byte 0x" + Integer.toHexString(b & 0xff));
        }
    }

    private void startChunkSize()
    {
        remaining = 0;
        sizeDigits = false;
    }

    private void endChunkSize()
    {
        if (!sizeDigits)
        {
            throw new IllegalStateException("chunk without a size");
        }
        if (remaining == 0)
        {
            state = State.TRAILER;
            trailerLineLength = 0;
        }
        else
        {
            state = State.CHUNK_DATA;
        }
    }

    private void end()
    {
        state = State.END;
        handler.onEnd();
    }

    private static State fail(String message)
    {
        throw new IllegalStateException(message);
    }

    private int decodeHead(byte[] buffer, int index, int limit)
    {
        for (int i = index; i < limit; i++)
        {
            if (headLength == MAX_HEAD_BYTES)
            {
                throw new IllegalStateException("response head longer than " + MAX_HEAD_BYTES + " bytes");
            }
            head = headLength < head.length ? head : Arrays.copyOf(head, Math.max(64, head.length * 2));
            head[headLength++] = buffer[i];
            if (buffer[i] == '\n' && (endsWith("\r\n\r\n") || endsWith("\n\n")))
            {
                onHead(new String(head, 0, headLength, StandardCharsets.ISO_8859_1));
                return i + 1;
            }
        }
        return limit;
    }

    private boolean endsWith(String end)
    {
        if (headLength < end.length())
        {
            return false;
        }
        for (int i = 0; i < end.length(); i++)
        {
            if (head[headLength - end.length() + i] != end.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    private void onHead(String text)
    {
        // the head is read once per connection: parsing it into strings is no cost of the data path
        head = null;
        headLength = 0;
        final String[] lines = text.split("\r?\n");
        final String[] status = lines[0].split(" ", 3);
        int code = 0;
        if (status.length >= 2 && status[0].startsWith("HTTP/1."))
        {
            try
            {
                code = Integer.parseInt(status[1]);
            }
            catch (NumberFormatException ex)
            {
                code = 0;
            }
        }
        String contentType = null;
        boolean chunked = false;
        long contentLength = -1;
        for (int i = 1; i < lines.length; i++)
        {
            final int colon = lines[i].indexOf(':');
            if (colon > 0)
            {
                final String name = lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT);
                final String value = lines[i].substring(colon + 1).trim();
                switch (name)
                {
                    case "content-type" -> contentType = value.toLowerCase(Locale.ROOT);
                    case "transfer-encoding" -> chunked = value.toLowerCase(Locale.ROOT).endsWith("chunked");
                    case "content-length" -> contentLength = Long.parseLong(value);
                    default ->
                    {
                    }
                }
            }
        }
        final String problem = code == 0 ? "not an HTTP/1.x response: " + lines[0]
            : code != 200 ? "status " + code
            : contentType == null || !contentType.startsWith("text/event-stream")
                ? "content-type " + contentType + ", not text/event-stream"
            : null;
        if (chunked)
        {
            state = State.CHUNK_SIZE;
            startChunkSize();
        }
        else
        {
            state = State.BODY;
            remaining = contentLength >= 0 ? contentLength : Long.MAX_VALUE;
        }
        handler.onHead(code, problem);
        if (problem == null && state == State.BODY && remaining == 0)
        {
            end();
        }
    }
}
