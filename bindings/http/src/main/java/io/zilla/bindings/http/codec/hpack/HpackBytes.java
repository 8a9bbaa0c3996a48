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

    static int hash(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        int hash = length;
        for (int i = 0; i < length; i++)
        {
            hash = 31 * hash + buffer.getByte(offset + i);
        }
        return hash ^ hash >>> 16;
    }
}
