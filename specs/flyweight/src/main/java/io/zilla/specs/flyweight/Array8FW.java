/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Items after an int8 count (IDL {@code array8<T>}): up to 127 items, -1 for null. */
public final class Array8FW<T extends Flyweight> extends ArrayFW<T>
{
    public Array8FW(T itemRO)
    {
        super(itemRO);
    }

    @Override
    protected int prefixLimit(DirectBuffer buffer, int offset, int maxLimit)
    {
        return maxLimit - offset < Byte.BYTES ? TRUNCATED : offset + Byte.BYTES;
    }

    @Override
    protected int readCount(DirectBuffer buffer, int offset)
    {
        return buffer.getByte(offset);
    }

    public static final class Builder<B extends Flyweight.Builder<T>, T extends Flyweight>
        extends ArrayFW.Builder<B, T, Array8FW<T>>
    {
        public Builder(B itemRW, T itemRO)
        {
            super(new Array8FW<>(itemRO), itemRW, Byte.MAX_VALUE);
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
            return Byte.BYTES;
        }

        @Override
        protected void putCount(MutableDirectBuffer buffer, int index, int count)
        {
            buffer.putByte(index, (byte) count);
        }
    }
}
