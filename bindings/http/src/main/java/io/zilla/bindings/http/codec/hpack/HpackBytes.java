/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.codec.hpack;

import org.agrona.DirectBuffer;

/** Comparing and hashing byte ranges of two buffers without copying them. */
final class HpackBytes
{
    private HpackBytes()
    {
    }

    static boolean equal(
        DirectBuffer a,
        int aOffset,
        int aLength,
        DirectBuffer b,
        int bOffset,
        int bLength)
    {
        if (aLength != bLength)
        {
            return false;
        }
        int i = 0;
        for (; i + 8 <= aLength; i += 8)
        {
            if (a.getLong(aOffset + i) != b.getLong(bOffset + i))
            {
                return false;
            }
        }
        for (; i < aLength; i++)
        {
            if (a.getByte(aOffset + i) != b.getByte(bOffset + i))
            {
                return false;
            }
        }
        return true;
    }

    /**
     * A cheap hash of a name for table lookups: its length and three of its bytes (first, middle, last), which
     * tell apart every name of the static table; lookups compare the bytes after a hash match.
     */
    static int hash(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        if (length == 0)
        {
            return 0;
        }
        final int first = buffer.getByte(offset) & 0xff;
        final int middle = buffer.getByte(offset + (length >> 1)) & 0xff;
        final int last = buffer.getByte(offset + length - 1) & 0xff;
        final int hash = (length * 31 + first) * 31 * 31 + middle * 31 + last;
        return hash ^ hash >>> 7;
    }
}
