/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.util.Arrays;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableDirectByteBuffer;

/**
 * What a cursor lets through: an OR of groups, each an AND of conditions on the key or on a header (name and value),
 * as a Kafka fetch's filters. Built once per reader (that allocates), then read without allocating.
 * <p>
 * Each condition is kept encoded as the log encodes the field, lengths included, with its hash: a cursor finds
 * candidates through the hash indexes by the first condition of each group, then checks every condition of the group
 * against the entry's real bytes, which also rules out two different keys or headers that share a hash.
 * <pre>
 *   new CacheFilter().key(a).or().key(b)                  key a, or key b
 *   new CacheFilter().key(a).header(name, value)          key a with that header
 * </pre>
 */
public final class CacheFilter
{
    private static final int KEY = 0;
    private static final int HEADER = 1;

    private final ExpandableDirectByteBuffer bytes = new ExpandableDirectByteBuffer(64);
    private int limit;
    private int[] kinds = new int[4];
    private int[] offsets = new int[4];
    private int[] lengths = new int[4];
    private int[] hashes = new int[4];
    private int conditions;
    private int[] groupEnds = new int[2];
    private int groups;
    private boolean groupOpen;

    /** The key equals {@code key}; null for a null key. */
    public CacheFilter key(DirectBuffer key)
    {
        final int start = limit;
        limit = putField(start, key);
        return add(KEY, start);
    }

    /** Some header has this name and this value; null for a null value. */
    public CacheFilter header(DirectBuffer name, DirectBuffer value)
    {
        final int start = limit;
        limit = putField(putField(start, name), value);
        return add(HEADER, start);
    }

    /** Ends the current group: the conditions that follow form another, OR-ed with it. */
    public CacheFilter or()
    {
        groupOpen = false;
        return this;
    }

    int groups()
    {
        return groups;
    }

    /** The hash of a group's first condition: its candidates are the entries that have it. */
    int hash(int group)
    {
        return hashes[group > 0 ? groupEnds[group - 1] : 0];
    }

    /** Whether the entry passes: every condition of some group holds on its bytes. */
    boolean matches(CacheEntry entry)
    {
        boolean matches = groups == 0;
        for (int group = 0; group < groups && !matches; group++)
        {
            matches = true;
            for (int condition = group > 0 ? groupEnds[group - 1] : 0; condition < groupEnds[group] && matches; condition++)
            {
                matches = holds(condition, entry);
            }
        }
        return matches;
    }

    private boolean holds(int condition, CacheEntry entry)
    {
        final DirectBuffer log = entry.buffer();
        boolean holds = false;
        if (kinds[condition] == KEY)
        {
            holds = equal(condition, log, entry.keyField(), entry.keyFieldLength());
        }
        else
        {
            final CacheHeaders headers = entry.headers();
            while (!holds && headers.next())
            {
                holds = equal(condition, log, headers.encodingOffset(), headers.encodingLength());
            }
        }
        return holds;
    }

    private boolean equal(int condition, DirectBuffer other, int offset, int length)
    {
        boolean equal = length == lengths[condition];
        final int start = offsets[condition];
        int i = 0;
        for (; equal && i + Long.BYTES <= length; i += Long.BYTES)
        {
            equal = bytes.getLong(start + i) == other.getLong(offset + i);
        }
        for (; equal && i < length; i++)
        {
            equal = bytes.getByte(start + i) == other.getByte(offset + i);
        }
        return equal;
    }

    private CacheFilter add(int kind, int start)
    {
        if (conditions == kinds.length)
        {
            kinds = Arrays.copyOf(kinds, conditions * 2);
            offsets = Arrays.copyOf(offsets, conditions * 2);
            lengths = Arrays.copyOf(lengths, conditions * 2);
            hashes = Arrays.copyOf(hashes, conditions * 2);
        }
        kinds[conditions] = kind;
        offsets[conditions] = start;
        lengths[conditions] = limit - start;
        hashes[conditions] = CacheHash.of(bytes, start, limit - start);
        conditions++;
        if (!groupOpen)
        {
            if (groups == groupEnds.length)
            {
                groupEnds = Arrays.copyOf(groupEnds, groups * 2);
            }
            groups++;
            groupOpen = true;
        }
        groupEnds[groups - 1] = conditions;
        return this;
    }

    private int putField(int field, DirectBuffer value)
    {
        final int length = value != null ? value.capacity() : CacheHeaders.NULL_LENGTH;
        bytes.putInt(field, length);
        if (length > 0)
        {
            bytes.putBytes(field + CacheHeaders.LENGTH_SIZE, value, 0, length);
        }
        return field + CacheHeaders.LENGTH_SIZE + Math.max(length, 0);
    }
}
