/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Items after an int16 count (IDL {@code array16<T>}): up to 32767 items, -1 for null. */
public final class Array16FW<T extends Flyweight> extends ArrayFW<T>
{
    private final ByteOrder byteOrder;

    public Array16FW(T itemRO, ByteOrder byteOrder)
    {
        super(itemRO);
        this.byteOrder = byteOrder;
    }

    @Override
    protected int prefixLimit(DirectBuffer buffer, int offset, int maxLimit)
    {
        return maxLimit - offset < Short.BYTES ? TRUNCATED : offset + Short.BYTES;
    }

    @Override
    protected int readCount(DirectBuffer buffer, int offset)
    {
        return buffer.getShort(offset, byteOrder);
    }

    public static final class Builder<B extends Flyweight.Builder<T>, T extends Flyweight>
        extends ArrayFW.Builder<B, T, Array16FW<T>>
    {
        private final ByteOrder byteOrder;

        public Builder(B itemRW, T itemRO, ByteOrder byteOrder)
        {
            super(new Array16FW<>(itemRO, byteOrder), itemRW, Short.MAX_VALUE);
            this.byteOrder = byteOrder;
        }

        @Override
        public Builder<B, T> wrap(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            super.wrap(buffer, offset, maxLimit);
            return this;
        }

        @Override
        protected int prefixSize(int count)
        {
            return Short.BYTES;
        }

        @Override
        protected void putCount(MutableDirectBuffer buffer, int index, int count)
        {
            buffer.putShort(index, (short) count, byteOrder);
        }
    }
}
