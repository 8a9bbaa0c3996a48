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
    private final boolean hashNames;
    private final UnsafeBuffer bytes;
    private final int capacity;
    private final int[] offsets;
    private final int[] nameLengths;
    private final int[] valueLengths;
    private final int[] nameHashes;
    private final int slots;

    private int oldest;
    private int count;
    private int size;
    private int maxSize;
    private int tail;

    /**
     * @param limit the largest maximum size the table may be given (our SETTINGS_HEADER_TABLE_SIZE when decoding,
     *              the encoder's own cap when encoding); also its initial maximum size
     */
    public HpackDynamicTable(
        int limit)
    {
        this(limit, true);
    }

    /**
     * @param hashNames whether to keep a hash of each name, for {@link #find} (an encoder's table); a decoder's
     *                  table only looks entries up by index
     */
    HpackDynamicTable(
        int limit,
        boolean hashNames)
    {
        this.hashNames = hashNames;
        if (limit < 0 || limit > 1 << 24)
        {
            throw new IllegalArgumentException("table size limit " + limit);
        }
        this.limit = limit;
        this.capacity = Math.max(2 * limit, 1);
        this.bytes = new UnsafeBuffer(new byte[capacity]);
        this.slots = limit / ENTRY_OVERHEAD + 1;
        this.offsets = new int[slots];
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
        return offsets[slot(index)];
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
        return offsets[slot] + nameLengths[slot];
    }

    public int valueLength(
        int index)
    {
        return valueLengths[slot(index)];
    }

    /**
     * Looks for a field, newest entry first (for the encoder).
     *
     * @param nameHash      the name's {@link HpackBytes#hash}
     * @param matchValue    false to look for the name only
     * @return the index of the entry with this name and value, else minus the index of the newest entry with this
     *         name, else 0
     */
    int find(
        int nameHash,
        DirectBuffer name,
        int nameOffset,
        int nameLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength,
        boolean matchValue)
    {
        int nameMatch = 0;
        int slot = count == 0 ? 0 : wrap(oldest + count - 1);
        for (int index = 1; index <= count; index++)
        {
            if (nameHashes[slot] == nameHash && nameLengths[slot] == nameLength
                && HpackBytes.equal(bytes, offsets[slot], nameLength, name, nameOffset, nameLength))
            {
                if (matchValue && HpackBytes.equal(bytes, offsets[slot] + nameLength, valueLengths[slot],
                    value, valueOffset, valueLength))
                {
                    return index;
                }
                if (nameMatch == 0)
                {
                    nameMatch = -index;
                }
            }
            slot = slot == 0 ? slots - 1 : slot - 1;
        }
        return nameMatch;
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
        final int nameHash = hashNames ? HpackBytes.hash(nameBuffer, nameOffset, nameLength) : 0;
        evictTo(maxSize - (int) entrySize);

        final int length = nameLength + valueLength;
        // the entry goes after the newest, or at 0 when it would cross the end: it then fits before the oldest
        final int at = tail + length > capacity ? 0 : tail;
        // copyMemory copies overlapping ranges correctly: the name may come from an evicted entry's bytes
        bytes.putBytes(at, nameBuffer, nameOffset, nameLength);
        bytes.putBytes(at + nameLength, valueBuffer, valueOffset, valueLength);

        final int slot = wrap(oldest + count);
        offsets[slot] = at;
        nameLengths[slot] = nameLength;
        valueLengths[slot] = valueLength;
        nameHashes[slot] = nameHash;
        count++;
        size += (int) entrySize;
        tail = at + length;
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
            oldest = wrap(oldest + 1);
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
        return wrap(oldest + count - index);
    }

    // slot arithmetic without a division: the argument is below twice the slots
    private int wrap(
        int slot)
    {
        return slot >= slots ? slot - slots : slot;
    }
}
