/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Searches and the sort over the 8-byte entries of an index file, {@code high << 32 | position}, in place in the
 * mapping. Entries compare as unsigned longs, so a hash in the high half orders the same way whatever its top bit.
 */
final class CacheIndexEntries
{
    static final int SIZE = 8;

    private CacheIndexEntries()
    {
    }

    /** The first of {@code count} sorted entries that is not below {@code key}, or {@code count}. */
    static int lowerBound(DirectBuffer buffer, int count, long key)
    {
        int low = 0;
        int high = count;
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (Long.compareUnsigned(buffer.getLong(middle * SIZE), key) < 0)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low;
    }

    /**
     * The first of {@code count} entries, in append order, whose position (low half) is not below {@code position},
     * or {@code count}: an {@code .hscan} is not sorted by hash, but its positions never go down.
     */
    static int lowerBoundByPosition(DirectBuffer buffer, int count, int position)
    {
        int low = 0;
        int high = count;
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (position(buffer.getLong(middle * SIZE)) < position)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low;
    }

    static int high(long entry)
    {
        return (int) (entry >>> 32);
    }

    static int position(long entry)
    {
        return (int) entry;
    }

    /**
     * Sorts {@code count} entries in place, unsigned: a heap sort, because it needs no memory beside the mapping and
     * no recursion, and its worst case is its average case whatever the hashes.
     */
    static void sort(MutableDirectBuffer buffer, int count)
    {
        for (int root = count / 2 - 1; root >= 0; root--)
        {
            siftDown(buffer, root, count);
        }
        for (int end = count - 1; end > 0; end--)
        {
            swap(buffer, 0, end);
            siftDown(buffer, 0, end);
        }
    }

    private static void siftDown(MutableDirectBuffer buffer, int root, int count)
    {
        int parent = root;
        int child = 2 * parent + 1;
        while (child < count)
        {
            if (child + 1 < count && Long.compareUnsigned(buffer.getLong(child * SIZE), buffer.getLong((child + 1) * SIZE)) < 0)
            {
                child++;
            }
            if (Long.compareUnsigned(buffer.getLong(parent * SIZE), buffer.getLong(child * SIZE)) >= 0)
            {
                break;
            }
            swap(buffer, parent, child);
            parent = child;
            child = 2 * parent + 1;
        }
    }

    private static void swap(MutableDirectBuffer buffer, int i, int j)
    {
        final long entry = buffer.getLong(i * SIZE);
        buffer.putLong(i * SIZE, buffer.getLong(j * SIZE));
        buffer.putLong(j * SIZE, entry);
    }
}
