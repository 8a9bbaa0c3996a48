/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A record's headers where they lie, read one after the other without copying. The encoding, in native byte order as
 * the rest of the log: an int32 count, then per header an int32 name length, the name, an int32 value length (-1 for a
 * null value) and the value. {@link CacheHeadersBuilder} writes it.
 */
public final class CacheHeaders
{
    static final int COUNT_SIZE = 4;
    static final int LENGTH_SIZE = 4;
    static final int NULL_LENGTH = -1;

    private final UnsafeBuffer nameRO = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer valueRO = new UnsafeBuffer(new byte[0]);

    private DirectBuffer buffer;
    private int count;
    private int index;
    private int next;
    private int header;
    private int valueLength;

    /** Wraps the encoded headers at {@code offset}, before the first header: call {@link #next()} to reach it. */
    public CacheHeaders wrap(DirectBuffer buffer, int offset)
    {
        this.buffer = buffer;
        this.count = buffer.getInt(offset);
        this.index = 0;
        this.next = offset + COUNT_SIZE;
        this.header = -1;
        return this;
    }

    public int count()
    {
        return count;
    }

    /** Moves to the next header, false after the last. */
    public boolean next()
    {
        final boolean more = index < count;
        if (more)
        {
            index++;
            header = next;
            final int nameLength = buffer.getInt(header);
            valueLength = buffer.getInt(header + LENGTH_SIZE + nameLength);
            next = header + LENGTH_SIZE + nameLength + LENGTH_SIZE + Math.max(valueLength, 0);
        }
        return more;
    }

    /** The current header's name, a view valid until the next call. */
    public DirectBuffer name()
    {
        nameRO.wrap(buffer, header + LENGTH_SIZE, buffer.getInt(header));
        return nameRO;
    }

    /** The current header's value, a view valid until the next call, or null for a null value. */
    public DirectBuffer value()
    {
        DirectBuffer value = null;
        if (valueLength != NULL_LENGTH)
        {
            valueRO.wrap(buffer, next - valueLength, valueLength);
            value = valueRO;
        }
        return value;
    }

    /** Where the current header's encoding starts: its name length. */
    int encodingOffset()
    {
        return header;
    }

    /** The length of the current header's encoding, lengths included: what its hash covers. */
    int encodingLength()
    {
        return next - header;
    }

    /** Where the encoding ends: after the last header once {@link #next()} returned false. */
    int limit()
    {
        return next;
    }

    /**
     * The number of headers in {@code length} encoded bytes, after checking that every length stays inside them.
     *
     * @throws IllegalArgumentException when they do not
     */
    static int validate(DirectBuffer buffer, int offset, int length)
    {
        final int limit = offset + length;
        int count = length >= COUNT_SIZE ? buffer.getInt(offset) : -1;
        int cursor = offset + COUNT_SIZE;
        for (int i = 0; i < count && cursor <= limit; i++)
        {
            final int nameLength = limit - cursor >= 2 * LENGTH_SIZE ? buffer.getInt(cursor) : -1;
            final int valueField = cursor + LENGTH_SIZE + nameLength;
            final int valueLength = nameLength >= 0 && nameLength <= limit - cursor - 2 * LENGTH_SIZE
                ? buffer.getInt(valueField)
                : Integer.MIN_VALUE;
            cursor = valueLength >= NULL_LENGTH && valueLength <= limit - valueField - LENGTH_SIZE
                ? valueField + LENGTH_SIZE + Math.max(valueLength, 0)
                : limit + 1;
        }
        if (count < 0 || cursor != limit)
        {
            // built only on failure: the check itself runs per record and allocates nothing
            throw new IllegalArgumentException("headers: " + length + " bytes do not hold the " + count
                + " headers they announce, each an int32 name length, the name, an int32 value length (-1: null), the value");
        }
        return count;
    }
}
