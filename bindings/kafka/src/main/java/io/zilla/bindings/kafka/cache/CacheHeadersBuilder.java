/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes a record's headers in the encoding that {@link CacheHeaders} reads and {@link CachePartition#append} takes,
 * into a buffer the caller owns and reuses: nothing is allocated.
 */
public final class CacheHeadersBuilder
{
    private MutableDirectBuffer buffer;
    private int offset;
    private int limit;
    private int count;

    /** Starts an empty list of headers at {@code offset}. */
    public CacheHeadersBuilder wrap(MutableDirectBuffer buffer, int offset)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.limit = offset + CacheHeaders.COUNT_SIZE;
        this.count = 0;
        buffer.putInt(offset, 0);
        return this;
    }

    /** Adds a header; a null value is kept as null. */
    public CacheHeadersBuilder header(DirectBuffer name, DirectBuffer value)
    {
        return header(name, 0, name.capacity(), value, 0, value != null ? value.capacity() : CacheHeaders.NULL_LENGTH);
    }

    /** Adds a header from ranges of other buffers; {@code valueLength} -1 for a null value. */
    public CacheHeadersBuilder header(
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength)
    {
        buffer.putInt(limit, nameLength);
        buffer.putBytes(limit + CacheHeaders.LENGTH_SIZE, name, nameOffset, nameLength);
        limit += CacheHeaders.LENGTH_SIZE + nameLength;
        buffer.putInt(limit, valueLength);
        limit += CacheHeaders.LENGTH_SIZE;
        if (valueLength > 0)
        {
            buffer.putBytes(limit, value, valueOffset, valueLength);
            limit += valueLength;
        }
        buffer.putInt(offset, ++count);
        return this;
    }

    public int offset()
    {
        return offset;
    }

    /** The length of the encoding so far. */
    public int length()
    {
        return limit - offset;
    }
}
