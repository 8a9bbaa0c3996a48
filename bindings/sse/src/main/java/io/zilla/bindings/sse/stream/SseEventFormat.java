/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import java.nio.charset.StandardCharsets;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The text/event-stream form of an event (WHATWG HTML 9.2.5), written without allocating. An event is its
 * {@code id:} and {@code event:} lines (when it has them), its payload as {@code data:} lines, one per line of the
 * payload, split at every CR, LF and CRLF, and the blank line that dispatches it. The browser joins the data lines
 * with LF, so a payload with CR or CRLF line breaks reaches a page with LF ones: that is all text/event-stream can
 * carry. A payload may come in fragments (Data frames without FIN): a CR at the end of one and an LF at the start of
 * the next are one line break, so the writer is told whether the byte before the fragment was a CR.
 */
final class SseEventFormat
{
    static final byte CR = '\r';
    static final byte LF = '\n';

    private static final long CR_WORD = 0x0d0d0d0d0d0d0d0dL;
    private static final long LF_WORD = 0x0a0a0a0a0a0a0a0aL;

    private static final DirectBuffer ID = ascii("id: ");
    private static final DirectBuffer EVENT = ascii("event: ");
    private static final DirectBuffer DATA = ascii("data: ");
    private static final DirectBuffer BREAK = ascii("\ndata: ");
    private static final DirectBuffer RETRY = ascii("retry: ");

    /** The bytes a line break of the payload becomes: the LF ending a data line and the next one's prefix. */
    static final int BREAK_LENGTH = 7;

    private SseEventFormat()
    {
    }

    /** Whether a field value can go on one line as it is: a value with a CR or LF would end its line early. */
    static boolean oneLine(DirectBuffer buffer, int offset, int length)
    {
        return nextBreak(buffer, offset, offset + length) == offset + length;
    }

    /**
     * The index of the first CR or LF from {@code from}, or {@code limit}: eight bytes at a time, since every event is
     * scanned once per connection it goes to and most payloads (JSON, base64) have no line break at all.
     */
    static int nextBreak(DirectBuffer buffer, int from, int limit)
    {
        int i = from;
        for (; i + Long.BYTES <= limit; i += Long.BYTES)
        {
            final long word = buffer.getLong(i);
            if (hasByte(word, CR_WORD) || hasByte(word, LF_WORD))
            {
                break;
            }
        }
        for (; i < limit; i++)
        {
            final byte b = buffer.getByte(i);
            if (b == CR || b == LF)
            {
                break;
            }
        }
        return i;
    }

    // whether a byte of word equals the byte repeated in pattern: its XOR has a zero byte then (the classic test
    // (v - 0x01..) & ~v & 0x80.., exact as to whether there is one)
    private static boolean hasByte(long word, long pattern)
    {
        final long v = word ^ pattern;
        return ((v - 0x0101010101010101L) & ~v & 0x8080808080808080L) != 0L;
    }

    /**
     * The bytes of one fragment of an event: its head (the id and event lines, each absent with a negative length, and
     * the first data prefix) when {@code init}, its payload with each line break as {@link #BREAK_LENGTH} bytes, and
     * the LF ending the last data line and the blank line when {@code fin}.
     */
    static int length(int idLength, int typeLength, DirectBuffer payload, int offset, int length, boolean init,
        boolean fin, boolean crBefore)
    {
        int size = length;
        if (init)
        {
            size += (idLength >= 0 ? ID.capacity() + idLength + 1 : 0) + (typeLength >= 0 ? EVENT.capacity() + typeLength + 1 : 0)
                + DATA.capacity();
        }
        final int limit = offset + length;
        boolean cr = crBefore;
        for (int i = nextBreak(payload, offset, limit); i < limit; i = nextBreak(payload, i + 1, limit))
        {
            final byte b = payload.getByte(i);
            // a CRLF's LF is one byte of the payload that writes nothing: the CR wrote the break
            cr &= i == offset || payload.getByte(i - 1) == CR;
            size += b == LF && cr ? -1 : BREAK_LENGTH - 1;
            cr = b == CR;
        }
        return fin ? size + 2 : size;
    }

    /** Writes what {@link #length} counted at {@code at} of {@code out}; returns the index after it. */
    static int write(MutableDirectBuffer out, int at, DirectBuffer id, int idOffset, int idLength, DirectBuffer type,
        int typeOffset, int typeLength, DirectBuffer payload, int offset, int length, boolean init, boolean fin,
        boolean crBefore)
    {
        int index = at;
        if (init)
        {
            if (idLength >= 0)
            {
                index = line(out, index, ID, id, idOffset, idLength);
            }
            if (typeLength >= 0)
            {
                index = line(out, index, EVENT, type, typeOffset, typeLength);
            }
            index = put(out, index, DATA);
        }
        boolean cr = crBefore;
        int run = offset;
        final int limit = offset + length;
        for (int i = nextBreak(payload, offset, limit); i < limit; i = nextBreak(payload, i + 1, limit))
        {
            final byte b = payload.getByte(i);
            out.putBytes(index, payload, run, i - run);
            index += i - run;
            // the CR before counts only if it came right before this LF
            cr &= i == run;
            if (b == CR || !cr)
            {
                index = put(out, index, BREAK);
            }
            cr = b == CR;
            run = i + 1;
        }
        out.putBytes(index, payload, run, limit - run);
        index += limit - run;
        if (fin)
        {
            out.putByte(index++, LF);
            out.putByte(index++, LF);
        }
        return index;
    }

    /** Whether the byte before the next fragment is a CR: the last of this one, or the one before if it is empty. */
    static boolean endsWithCr(DirectBuffer payload, int offset, int length, boolean crBefore)
    {
        return length > 0 ? payload.getByte(offset + length - 1) == CR : crBefore;
    }

    /** {@code id: <id>} and the blank line: sets the client's last event id without dispatching an event. */
    static int writeId(MutableDirectBuffer out, int at, DirectBuffer id, int idOffset, int idLength)
    {
        final int index = line(out, at, ID, id, idOffset, idLength);
        out.putByte(index, LF);
        return index + 1;
    }

    /** {@code retry: <millis>} and a blank line. */
    static int writeRetry(MutableDirectBuffer out, int at, int millis)
    {
        int index = put(out, at, RETRY);
        index += out.putIntAscii(index, millis);
        out.putByte(index++, LF);
        out.putByte(index++, LF);
        return index;
    }

    private static int line(MutableDirectBuffer out, int at, DirectBuffer field, DirectBuffer value, int offset, int length)
    {
        int index = put(out, at, field);
        out.putBytes(index, value, offset, length);
        index += length;
        out.putByte(index, LF);
        return index + 1;
    }

    private static int put(MutableDirectBuffer out, int at, DirectBuffer bytes)
    {
        out.putBytes(at, bytes, 0, bytes.capacity());
        return at + bytes.capacity();
    }

    static DirectBuffer ascii(String text)
    {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }
}
