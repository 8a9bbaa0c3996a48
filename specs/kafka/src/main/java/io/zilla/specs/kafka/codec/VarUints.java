/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import org.agrona.DirectBuffer;

/**
 * Kafka's unsigned varints (tagged fields, compact lengths), read without allocating: {@link #read} packs the
 * value (low 32 bits) and its size in bytes (bits 32 to 34) into one long, negative when malformed.
 */
public final class VarUints
{
    private static final int MAX_SIZE = 5;

    private VarUints()
    {
    }

    /**
     * Reads an unsigned varint of at most 32 bits at {@code offset}, reading nothing at or past {@code limit}.
     *
     * @return the packed value and size, or -1 when truncated or longer than 32 bits
     */
    public static long read(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        long value = 0;
        long result = -1;
        for (int i = 0; i < MAX_SIZE && offset + i < limit; i++)
        {
            final int b = buffer.getByte(offset + i) & 0xff;
            value |= (long) (b & 0x7f) << (7 * i);
            if ((b & 0x80) == 0)
            {
                result = value <= 0xffff_ffffL ? ((long) (i + 1) << 32) | value : -1;
                break;
            }
        }
        return result;
    }

    /** The value of a packed result of {@link #read}. */
    public static long value(
        long packed)
    {
        return packed & 0xffff_ffffL;
    }

    /** The size in bytes of a packed result of {@link #read}. */
    public static int sizeOf(
        long packed)
    {
        return (int) (packed >>> 32);
    }
}
