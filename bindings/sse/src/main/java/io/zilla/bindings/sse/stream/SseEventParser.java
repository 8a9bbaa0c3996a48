/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Reads text/event-stream as WHATWG HTML 9.2.6 says, byte by byte, resumable at any byte: lines end at CR, LF or CRLF;
 * a UTF-8 BOM first is skipped; a line starting with {@code :} is a comment; a field's name runs to the first colon (a
 * line without one is a name with an empty value) and one space after the colon is dropped. {@code data} appends its
 * value and an LF to the event's data, {@code event} sets its type, {@code id} its id (unless the value has a NUL),
 * {@code retry} and unknown fields are ignored; a blank line dispatches the event when its data is not empty, without
 * its last LF. An event at the end of the stream without its blank line is dropped, as a browser drops it.
 *
 * <p>The event is built in an {@link Event}'s buffer (a buffer slot): its data, its type and its id each have a region,
 * and a value that outgrows its region makes the parser stop with {@link #OVERFLOW}.
 */
final class SseEventParser
{
    static final int CONSUMED = 0;
    static final int DISPATCH = 1;
    static final int OVERFLOW = 2;

    /** The most bytes of an event's type, and of its id. */
    static final int FIELD_LIMIT = 1024;

    private static final int LINE_START = 0;
    private static final int NAME = 1;
    private static final int SPACE = 2;
    private static final int VALUE = 3;
    private static final int COMMENT = 4;

    private static final int FIELD_IGNORED = 0;
    private static final int FIELD_DATA = 1;
    private static final int FIELD_EVENT = 2;
    private static final int FIELD_ID = 3;

    private static final byte[] BOM = {(byte) 0xef, (byte) 0xbb, (byte) 0xbf};

    /** Where an event is built, and what the parser keeps between bytes. */
    static final class Event
    {
        MutableDirectBuffer buffer;
        int dataLength;
        int typeLength = -1;
        int idLength = -1;
        // the id field being read, before its line ends
        int pendingIdLength;
        boolean pendingIdNul;

        int state = LINE_START;
        int field;
        long name;
        int nameLength;
        boolean cr;
        int bom;

        void reset()
        {
            buffer = null;
            dataLength = 0;
            typeLength = -1;
            idLength = -1;
            pendingIdLength = 0;
            pendingIdNul = false;
            state = LINE_START;
            field = FIELD_IGNORED;
            name = 0L;
            nameLength = 0;
            cr = false;
            bom = 0;
        }

        /** Whether nothing of an event is held: its buffer may go back to the pool. */
        boolean idle()
        {
            return state == LINE_START && dataLength == 0 && typeLength < 0 && idLength < 0;
        }

        int dataOffset()
        {
            return 0;
        }

        int typeOffset()
        {
            return buffer.capacity() - 3 * FIELD_LIMIT;
        }

        int idOffset()
        {
            return buffer.capacity() - 2 * FIELD_LIMIT;
        }

        int pendingIdOffset()
        {
            return buffer.capacity() - FIELD_LIMIT;
        }

        /** The event was dispatched (or had no data): a new one starts. */
        void dispatched()
        {
            dataLength = 0;
            typeLength = -1;
            idLength = -1;
        }
    }

    private SseEventParser()
    {
    }

    /**
     * Reads bytes from {@code offset} until a blank line dispatches an event with data ({@link #DISPATCH}: the event is
     * ready in {@code event}, {@code progress[0]} is the index after the blank line's first byte, and the caller calls
     * {@link Event#dispatched} once it sent it), the bytes are all read ({@link #CONSUMED}), or a value outgrows its region
     * ({@link #OVERFLOW}). The event's buffer must be set before.
     */
    static int parse(Event event, DirectBuffer buffer, int offset, int limit, int[] progress)
    {
        for (int i = offset; i < limit; i++)
        {
            final byte b = buffer.getByte(i);
            if (event.bom < BOM.length)
            {
                if (b == BOM[event.bom] && event.bom >= 0)
                {
                    event.bom++;
                    continue;
                }
                // no BOM (the bytes of a partial one are not worth keeping: a stream does not start with them otherwise)
                event.bom = BOM.length;
            }
            if (b == '\n' && event.cr)
            {
                // the LF of a CRLF: the CR ended the line
                event.cr = false;
                continue;
            }
            event.cr = b == '\r';
            final boolean eol = b == '\r' || b == '\n';
            switch (event.state)
            {
                case LINE_START ->
                {
                    if (eol)
                    {
                        if (event.dataLength > 0)
                        {
                            progress[0] = i + 1;
                            return DISPATCH;
                        }
                        // no data: nothing is dispatched, the type is forgotten, and an id waits for the next event
                        event.typeLength = -1;
                    }
                    else if (b == ':')
                    {
                        event.state = COMMENT;
                    }
                    else
                    {
                        event.state = NAME;
                        event.name = b & 0xff;
                        event.nameLength = 1;
                    }
                }
                case NAME ->
                {
                    if (eol)
                    {
                        startField(event);
                        if (!endField(event))
                        {
                            return OVERFLOW;
                        }
                    }
                    else if (b == ':')
                    {
                        startField(event);
                        event.state = SPACE;
                    }
                    else
                    {
                        if (event.nameLength < 8)
                        {
                            event.name = event.name << 8 | (b & 0xff);
                        }
                        event.nameLength++;
                    }
                }
                case SPACE, VALUE ->
                {
                    if (eol)
                    {
                        if (!endField(event))
                        {
                            return OVERFLOW;
                        }
                    }
                    else if (event.state == SPACE && b == ' ')
                    {
                        event.state = VALUE;
                    }
                    else
                    {
                        event.state = VALUE;
                        if (!append(event, b))
                        {
                            return OVERFLOW;
                        }
                    }
                }
                default ->
                {
                    if (eol)
                    {
                        event.state = LINE_START;
                    }
                }
            }
        }
        return CONSUMED;
    }

    private static final long DATA = name("data");
    private static final long EVENT = name("event");
    private static final long ID = name("id");

    private static long name(String text)
    {
        long name = 0L;
        for (int i = 0; i < text.length(); i++)
        {
            name = name << 8 | text.charAt(i);
        }
        return name;
    }

    private static void startField(Event event)
    {
        final long name = event.nameLength <= 8 ? event.name : -1L;
        if (name == DATA)
        {
            event.field = FIELD_DATA;
        }
        else if (name == EVENT)
        {
            event.field = FIELD_EVENT;
            event.typeLength = 0;
        }
        else if (name == ID)
        {
            event.field = FIELD_ID;
            event.pendingIdLength = 0;
            event.pendingIdNul = false;
        }
        else
        {
            // retry, and any other field: ignored
            event.field = FIELD_IGNORED;
        }
    }

    private static boolean append(Event event, byte b)
    {
        final MutableDirectBuffer buffer = event.buffer;
        switch (event.field)
        {
            case FIELD_DATA ->
            {
                if (event.dataLength == event.typeOffset())
                {
                    return false;
                }
                buffer.putByte(event.dataOffset() + event.dataLength++, b);
            }
            case FIELD_EVENT ->
            {
                if (event.typeLength == FIELD_LIMIT)
                {
                    return false;
                }
                buffer.putByte(event.typeOffset() + event.typeLength++, b);
            }
            case FIELD_ID ->
            {
                if (event.pendingIdLength == FIELD_LIMIT)
                {
                    return false;
                }
                event.pendingIdNul |= b == 0;
                buffer.putByte(event.pendingIdOffset() + event.pendingIdLength++, b);
            }
            default ->
            {
            }
        }
        return true;
    }

    private static boolean endField(Event event)
    {
        event.state = LINE_START;
        switch (event.field)
        {
            case FIELD_DATA ->
            {
                if (event.dataLength == event.typeOffset())
                {
                    return false;
                }
                event.buffer.putByte(event.dataOffset() + event.dataLength++, (byte) '\n');
            }
            case FIELD_ID ->
            {
                if (!event.pendingIdNul)
                {
                    event.buffer.putBytes(event.idOffset(), event.buffer, event.pendingIdOffset(), event.pendingIdLength);
                    event.idLength = event.pendingIdLength;
                }
            }
            default ->
            {
            }
        }
        event.field = FIELD_IGNORED;
        return true;
    }
}
