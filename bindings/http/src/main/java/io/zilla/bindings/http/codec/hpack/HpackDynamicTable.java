/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The HPACK dynamic table (RFC 7541 section 2.3.2 and 4): a FIFO of header fields, newest first, whose size (the
 * sum of name + value + 32 per entry) stays within a maximum size that the peer's size updates may lower or raise
 * up to a fixed limit.
 *
 * <p>The bytes live in one preallocated ring of twice the limit, each entry contiguous (name then value), so a
 * name or value is always one range of {@link #buffer()}. An entry that does not fit before the ring's end starts
 * again at 0, leaving a gap; twice the limit is enough room for the entries the size accounting allows plus one
 * such gap, so placing an entry never evicts beyond what RFC 7541 says (the decoder and the peer's encoder stay in
 * step). Entry positions are kept in preallocated int arrays: adding and evicting allocate nothing.
 */
public final class HpackDynamicTable
{
    /** The overhead RFC 7541 section 4.1 counts for every entry. */
    public static final int ENTRY_OVERHEAD = 32;

    private final int limit;
    private final UnsafeBuffer bytes;
    private final int capacity;
    private final long[] starts;
    private final int[] nameLengths;
    private final int[] valueLengths;
    private final int[] nameHashes;
    private final int slots;

    private int oldest;
    private int count;
    private int size;
    private int maxSize;
    private long tail;

    /**
     * @param limit the largest maximum size the table may be given (our SETTINGS_HEADER_TABLE_SIZE when decoding,
     *              the encoder's own cap when encoding); also its initial maximum size
     */
    public HpackDynamicTable(
        int limit)
    {
        if (limit < 0 || limit > 1 << 24)
        {
            throw new IllegalArgumentException("table size limit " + limit);
        }
        this.limit = limit;
        this.capacity = Math.max(2 * limit, 1);
        this.bytes = new UnsafeBuffer(new byte[capacity]);
        this.slots = limit / ENTRY_OVERHEAD + 1;
        this.starts = new long[slots];
        this.nameLengths = new int[slots];
        this.valueLengths = new int[slots];
        this.nameHashes = new int[slots];
        this.maxSize = limit;
    }

    /** The bytes every entry's name and value are ranges of. */
    public DirectBuffer buffer()
    {
        return bytes;
    }

    /** The number of entries. */
    public int length()
    {
        return count;
    }

    /** The size RFC 7541 counts: name + value + 32 per entry. */
    public int size()
    {
        return size;
    }

    public int maxSize()
    {
        return maxSize;
    }

    public int limit()
    {
        return limit;
    }

    /** Sets the maximum size (at most {@link #limit()}), evicting the oldest entries above it. */
    public void maxSize(
        int maxSize)
    {
        assert maxSize >= 0 && maxSize <= limit;
        this.maxSize = maxSize;
        evictTo(maxSize);
    }

    /** Position of entry {@code index}, 1 the newest, in {@link #buffer()}. */
    public int nameOffset(
        int index)
    {
        return (int) (starts[slot(index)] % capacity);
    }

    public int nameLength(
        int index)
    {
        return nameLengths[slot(index)];
    }

    public int valueOffset(
        int index)
    {
        final int slot = slot(index);
        return (int) (starts[slot] % capacity) + nameLengths[slot];
    }

    public int valueLength(
        int index)
    {
        return valueLengths[slot(index)];
    }

    /** The hash of entry {@code index}'s name as {@link HpackBytes#hash} computes it. */
    int nameHash(
        int index)
    {
        return nameHashes[slot(index)];
    }

    /**
     * Adds an entry as the newest, after evicting the oldest entries it needs room for; an entry larger than the
     * maximum size empties the table and is not added. The name may be a range of {@link #buffer()} (a name taken
     * from an entry that this addition evicts, as RFC 7541 section 4.4 allows).
     */
    public void add(
        DirectBuffer nameBuffer,
        int nameOffset,
        int nameLength,
        DirectBuffer valueBuffer,
        int valueOffset,
        int valueLength)
    {
        final long entrySize = (long) nameLength + valueLength + ENTRY_OVERHEAD;
        if (entrySize > maxSize)
        {
            evictTo(0);
            return;
        }
        final int nameHash = HpackBytes.hash(nameBuffer, nameOffset, nameLength);
        evictTo(maxSize - (int) entrySize);

        final int length = nameLength + valueLength;
        long start = count == 0 ? 0 : tail;
        final int position = (int) (start % capacity);
        if (position + length > capacity)
        {
            start += capacity - position;
        }
        final int at = (int) (start % capacity);
        // copyMemory copies overlapping ranges correctly: the name may come from an evicted entry's bytes
        bytes.putBytes(at, nameBuffer, nameOffset, nameLength);
        bytes.putBytes(at + nameLength, valueBuffer, valueOffset, valueLength);

        final int slot = (oldest + count) % slots;
        starts[slot] = start;
        nameLengths[slot] = nameLength;
        valueLengths[slot] = valueLength;
        nameHashes[slot] = nameHash;
        count++;
        size += (int) entrySize;
        tail = start + length;
    }

    /** Empties the table. */
    public void clear()
    {
        evictTo(0);
    }

    private void evictTo(
        int targetSize)
    {
        while (size > targetSize && count > 0)
        {
            size -= nameLengths[oldest] + valueLengths[oldest] + ENTRY_OVERHEAD;
            oldest = (oldest + 1) % slots;
            count--;
        }
        if (count == 0)
        {
            oldest = 0;
            tail = 0;
        }
    }

    private int slot(
        int index)
    {
        assert index >= 1 && index <= count;
        return (oldest + count - index) % slots;
    }
}
