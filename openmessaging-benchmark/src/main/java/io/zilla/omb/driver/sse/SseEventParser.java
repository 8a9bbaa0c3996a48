/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental parser of a {@code text/event-stream} body, by the WHATWG HTML standard's rules (9.2.6, "Interpreting
 * an event stream"): lines end with CRLF, LF or CR (a CRLF split over two reads included); a line starting with
 * {@code :} is a comment; {@code field: value} loses one space after the colon; {@code data} lines are joined with LF;
 * {@code id} (unless it holds a NUL) sets the last event id, which stays for the events after it; {@code event} sets
 * the next event's type; {@code retry} (digits only) the reconnection time; an empty line dispatches the event, unless
 * its data is empty. A leading UTF-8 byte order mark is skipped.
 * <p>
 * Bytes in, bytes out: the line, the data, the id and the type are kept in arrays of the parser, grown to the largest
 * seen and reused, so that parsing allocates nothing per event. A line longer than {@code maxLineBytes} is an error
 * of the stream ({@link IllegalStateException}): a server that never ends its line would otherwise take all memory.
 */
final class SseEventParser
{
    /** What the parser found. */
    interface Listener
    {
        /** An event: {@code parser.data()} up to {@code parser.dataLength()}, valid until this method returns. */
        void onEvent(SseEventParser parser);
    }

    private static final byte[] BOM = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};
    private static final int INITIAL_BYTES = 64;

    private final Listener listener;
    private final int maxLineBytes;

    private byte[] line = new byte[INITIAL_BYTES];
    private int lineLength;
    private byte[] data = new byte[INITIAL_BYTES];
    private int dataLength;
    private byte[] type = new byte[16];
    private int typeLength;
    private byte[] lastId = new byte[16];
    private int lastIdLength;
    private boolean hasLastId;
    private long retryMillis = -1;
    private boolean afterCr;
    private int bomMatched;
    private boolean started;

    SseEventParser(Listener listener, int maxLineBytes)
    {
        this.listener = listener;
        this.maxLineBytes = maxLineBytes;
    }

    /** Parses {@code length} bytes of the stream from {@code offset}; events are dispatched as they complete. */
    void parse(byte[] buffer, int offset, int length)
    {
        int index = offset;
        final int limit = offset + length;
        while (!started && index < limit)
        {
            index = skipBom(buffer, index);
        }
        int lineStart = index;
        for (; index < limit; index++)
        {
            final byte b = buffer[index];
            if (b == '\n' || b == '\r')
            {
                if (b == '\n' && afterCr && index == lineStart && lineLength == 0)
                {
                    // the LF of a CRLF: the line already ended at the CR
                    afterCr = false;
                    lineStart = index + 1;
                    continue;
                }
                appendLine(buffer, lineStart, index - lineStart);
                afterCr = b == '\r';
                endLine();
                lineStart = index + 1;
            }
            else if (afterCr)
            {
                afterCr = false;
            }
        }
        appendLine(buffer, lineStart, limit - lineStart);
        if (limit > lineStart)
        {
            afterCr = false;
        }
    }

    /** Forgets a partial line and event, as a new connection starts afresh; the last event id and retry stay. */
    void reset()
    {
        lineLength = 0;
        dataLength = 0;
        typeLength = 0;
        afterCr = false;
        bomMatched = 0;
        started = false;
    }

    byte[] data()
    {
        return data;
    }

    int dataLength()
    {
        return dataLength;
    }

    /** The event's type, {@code message} when it had no {@code event} field (allocates: not for the data path). */
    String type()
    {
        return typeLength == 0 ? "message" : new String(type, 0, typeLength, StandardCharsets.UTF_8);
    }

    /** The last event id so far (allocates: for a reconnection's {@code Last-Event-ID}), or null when none was sent. */
    String lastEventId()
    {
        return hasLastId ? new String(lastId, 0, lastIdLength, StandardCharsets.UTF_8) : null;
    }

    /** The reconnection time the stream asked for in milliseconds, or -1 when it did not. */
    long retryMillis()
    {
        return retryMillis;
    }

    private int skipBom(byte[] buffer, int index)
    {
        if (buffer[index] == BOM[bomMatched])
        {
            bomMatched++;
            started = bomMatched == BOM.length;
            return index + 1;
        }
        // not a BOM after all: what matched of it is text of the first line
        started = true;
        appendLine(BOM, 0, bomMatched);
        return index;
    }

    private void appendLine(byte[] buffer, int offset, int length)
    {
        if (length == 0)
        {
            return;
        }
        if (lineLength + length > maxLineBytes)
        {
            throw new IllegalStateException("event stream line longer than " + maxLineBytes + " bytes");
        }
        line = ensure(line, lineLength + length);
        System.arraycopy(buffer, offset, line, lineLength, length);
        lineLength += length;
    }

    private void endLine()
    {
        final int length = lineLength;
        lineLength = 0;
        if (length == 0)
        {
            dispatch();
        }
        else if (line[0] != ':')
        {
            int colon = 0;
            while (colon < length && line[colon] != ':')
            {
                colon++;
            }
            int value = Math.min(colon + 1, length);
            if (value < length && line[value] == ' ')
            {
                value++;
            }
            field(colon, value, length);
        }
    }

    private void field(int nameLength, int value, int end)
    {
        final int valueLength = end - value;
        if (is("data", nameLength))
        {
            data = ensure(data, dataLength + valueLength + 1);
            System.arraycopy(line, value, data, dataLength, valueLength);
            dataLength += valueLength;
            data[dataLength++] = '\n';
        }
        else if (is("event", nameLength))
        {
            type = ensure(type, valueLength);
            System.arraycopy(line, value, type, 0, valueLength);
            typeLength = valueLength;
        }
        else if (is("id", nameLength))
        {
            for (int i = value; i < end; i++)
            {
                if (line[i] == 0)
                {
                    return;
                }
            }
            lastId = ensure(lastId, valueLength);
            System.arraycopy(line, value, lastId, 0, valueLength);
            lastIdLength = valueLength;
            hasLastId = true;
        }
        else if (is("retry", nameLength))
        {
            long millis = 0;
            for (int i = value; i < end; i++)
            {
                if (line[i] < '0' || line[i] > '9' || millis > Integer.MAX_VALUE)
                {
                    return;
                }
                millis = millis * 10 + line[i] - '0';
            }
            retryMillis = valueLength > 0 ? millis : retryMillis;
        }
    }

    private void dispatch()
    {
        if (dataLength > 0)
        {
            dataLength--;
            listener.onEvent(this);
        }
        dataLength = 0;
        typeLength = 0;
    }

    private boolean is(String name, int nameLength)
    {
        if (nameLength != name.length())
        {
            return false;
        }
        for (int i = 0; i < nameLength; i++)
        {
            if (line[i] != name.charAt(i))
            {
                return false;
            }
        }
        return true;
    }

    private static byte[] ensure(byte[] array, int length)
    {
        return length <= array.length ? array : Arrays.copyOf(array, Math.max(length, array.length * 2));
    }
}
