/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;

/** Byte-range comparisons that agrona's buffers do not offer, without allocating. */
public final class Bytes
{
    private Bytes()
    {
    }

    /** Whether {@code length} bytes of {@code a} at {@code aIndex} equal those of {@code b} at {@code bIndex}. */
    public static boolean equal(DirectBuffer a, int aIndex, DirectBuffer b, int bIndex, int length)
    {
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES)
        {
            if (a.getLong(aIndex + i) != b.getLong(bIndex + i))
            {
                return false;
            }
        }
        for (; i < length; i++)
        {
            if (a.getByte(aIndex + i) != b.getByte(bIndex + i))
            {
                return false;
            }
        }
        return true;
    }
}
