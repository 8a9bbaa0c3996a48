/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One record in a segment's {@code .log}, read in place: the views it hands out point into the mapped file and stay
 * valid until the entry is wrapped again (the cursor's next move). The layout, in native byte order, each entry
 * starting on an 8-byte boundary:
 * <pre>
 *   int64 offset
 *   int64 timestamp
 *   int32 flags          0 for now; room for compaction's marks
 *   int32 length         of the whole entry with its padding: the next entry starts there
 *   int32 keyLength      -1 for a null key
 *   bytes key
 *   int32 valueLength    -1 for a null value, a tombstone
 *   bytes value
 *   headers              as {@link CacheHeaders} reads them: int32 count, then lengths and bytes
 *   padding to 8 bytes
 * </pre>
 */
public final class CacheEntry
{
    static final int OFFSET = 0;
    static final int TIMESTAMP = 8;
    static final int FLAGS = 16;
    static final int LENGTH = 20;
    static final int KEY = 24;
    static final int ALIGNMENT = 8;

    private final UnsafeBuffer keyRO = new UnsafeBuffer(new byte[0]);
    private final UnsafeBuffer valueRO = new UnsafeBuffer(new byte[0]);
    private final CacheHeaders headersRO = new CacheHeaders();

    private DirectBuffer buffer;
    private int position;

    CacheEntry wrap(DirectBuffer buffer, int position)
    {
        this.buffer = buffer;
        this.position = position;
        return this;
    }

    public long offset()
    {
        return buffer.getLong(position + OFFSET);
    }

    public long timestamp()
    {
        return buffer.getLong(position + TIMESTAMP);
    }

    public int flags()
    {
        return buffer.getInt(position + FLAGS);
    }

    /** The key, or null for a null key. */
    public DirectBuffer key()
    {
        return view(keyRO, position + KEY);
    }

    /** The value, or null for a tombstone. */
    public DirectBuffer value()
    {
        return view(valueRO, valueField());
    }

    /** The headers, before the first: call {@link CacheHeaders#next()}. */
    public CacheHeaders headers()
    {
        return headersRO.wrap(buffer, headersField());
    }

    /** Where the entry lies in the log. */
    int position()
    {
        return position;
    }

    /** The entry's length with its padding. */
    int length()
    {
        return buffer.getInt(position + LENGTH);
    }

    DirectBuffer buffer()
    {
        return buffer;
    }

    /** Where the key's encoding (its length, then its bytes) starts. */
    int keyField()
    {
        return position + KEY;
    }

    /** The length of the key's encoding: what its hash covers. */
    int keyFieldLength()
    {
        return fieldLength(position + KEY);
    }

    /** The size of an entry, padding included, for a key, a value (-1 for null) and headers of {@code headersSize}. */
    static int sizeOf(int keyLength, int valueLength, int headersSize)
    {
        final long size = (long) KEY + CacheHeaders.LENGTH_SIZE + Math.max(keyLength, 0)
            + CacheHeaders.LENGTH_SIZE + Math.max(valueLength, 0) + headersSize;
        return size > Integer.MAX_VALUE - ALIGNMENT ? Integer.MAX_VALUE : BitUtil.align((int) size, ALIGNMENT);
    }

    private int valueField()
    {
        return position + KEY + fieldLength(position + KEY);
    }

    private int headersField()
    {
        final int valueField = valueField();
        return valueField + fieldLength(valueField);
    }

    private int fieldLength(int field)
    {
        return CacheHeaders.LENGTH_SIZE + Math.max(buffer.getInt(field), 0);
    }

    private DirectBuffer view(UnsafeBuffer view, int field)
    {
        final int length = buffer.getInt(field);
        DirectBuffer result = null;
        if (length != CacheHeaders.NULL_LENGTH)
        {
            view.wrap(buffer, field + CacheHeaders.LENGTH_SIZE, length);
            result = view;
        }
        return result;
    }
}
