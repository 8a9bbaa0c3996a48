/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Flyweight.MALFORMED;
import static io.zilla.specs.flyweight.Flyweight.TRUNCATED;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Base-128 variable-length integers, least significant group first, as in Kafka and Protocol Buffers:
 * each byte carries 7 bits and sets its high bit when another byte follows. Signed values are zig-zag
 * encoded first, so that small negative numbers stay short.
 */
public final class Varints
{
    /** The most bytes a 32-bit varint takes. */
    public static final int MAX_BYTES_32 = 5;

    /** The most bytes a 64-bit varint takes. */
    public static final int MAX_BYTES_64 = 10;

    private Varints()
    {
    }

    /**
     * Finds where the 32-bit varint at {@code offset} ends.
     *
     * @return its limit, {@link Flyweight#TRUNCATED} when it runs into maxLimit, or {@link Flyweight#MALFORMED}
     *     when it is longer than 5 bytes or its value needs more than 32 bits
     */
    public static int limit32(DirectBuffer buffer, int offset, int maxLimit)
    {
        return limit(buffer, offset, maxLimit, MAX_BYTES_32, 0x0f);
    }

    /**
     * Finds where the 64-bit varint at {@code offset} ends.
     *
     * @return its limit, {@link Flyweight#TRUNCATED} or {@link Flyweight#MALFORMED}
     */
    public static int limit64(DirectBuffer buffer, int offset, int maxLimit)
    {
        return limit(buffer, offset, maxLimit, MAX_BYTES_64, 0x01);
    }

    /** Reads the raw unsigned value of a varint already checked by {@link #limit32} or {@link #limit64}. */
    public static long readUnsigned(DirectBuffer buffer, int offset)
    {
        long value = 0;
        int shift = 0;
        int index = offset;
        int b;
        do
        {
            b = buffer.getByte(index++);
            value |= (long) (b & 0x7f) << shift;
            shift += 7;
        }
        while ((b & 0x80) != 0);
        return value;
    }

    /** The number of bytes the raw unsigned {@code value} takes. */
    public static int sizeofUnsigned(long value)
    {
        final int bits = 64 - Long.numberOfLeadingZeros(value | 1L);
        return (bits + 6) / 7;
    }

    /**
     * Writes the raw unsigned {@code value} at {@code offset}; the caller has checked {@link #sizeofUnsigned} bytes fit.
     *
     * @return the index just past the varint
     */
    public static int putUnsigned(MutableDirectBuffer buffer, int offset, long value)
    {
        int index = offset;
        long remaining = value;
        while ((remaining & ~0x7fL) != 0)
        {
            buffer.putByte(index++, (byte) ((remaining & 0x7f) | 0x80));
            remaining >>>= 7;
        }
        buffer.putByte(index++, (byte) remaining);
        return index;
    }

    public static long zigZag32(int value)
    {
        return ((value << 1) ^ (value >> 31)) & 0xffff_ffffL;
    }

    public static int unZigZag32(long raw)
    {
        final int bits = (int) raw;
        return (bits >>> 1) ^ -(bits & 1);
    }

    public static long zigZag64(long value)
    {
        return (value << 1) ^ (value >> 63);
    }

    public static long unZigZag64(long raw)
    {
        return (raw >>> 1) ^ -(raw & 1);
    }

    private static int limit(DirectBuffer buffer, int offset, int maxLimit, int maxBytes, int lastByteMask)
    {
        for (int i = 0; i < maxBytes; i++)
        {
            final int index = offset + i;
            if (index >= maxLimit)
            {
                return TRUNCATED;
            }
            final int b = buffer.getByte(index);
            if ((b & 0x80) == 0)
            {
                // the last of the most bytes may only carry the bits that remain of the width
                return i == maxBytes - 1 && (b & ~lastByteMask) != 0 ? MALFORMED : index + 1;
            }
        }
        return MALFORMED;
    }
}
