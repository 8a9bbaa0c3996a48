/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Items after an int32 count (IDL {@code array32<T>}, as Kafka's arrays), -1 for null. */
public final class Array32FW<T extends Flyweight> extends ArrayFW<T>
{
    private final ByteOrder byteOrder;

    public Array32FW(T itemRO, ByteOrder byteOrder)
    {
        super(itemRO);
        this.byteOrder = byteOrder;
    }

    @Override
    protected int prefixLimit(DirectBuffer buffer, int offset, int maxLimit)
    {
        return maxLimit - offset < Integer.BYTES ? TRUNCATED : offset + Integer.BYTES;
    }

    @Override
    protected int readCount(DirectBuffer buffer, int offset)
    {
        return buffer.getInt(offset, byteOrder);
    }

    public static final class Builder<B extends Flyweight.Builder<T>, T extends Flyweight>
        extends ArrayFW.Builder<B, T, Array32FW<T>>
    {
        private final ByteOrder byteOrder;

        public Builder(B itemRW, T itemRO, ByteOrder byteOrder)
        {
            super(new Array32FW<>(itemRO, byteOrder), itemRW, Integer.MAX_VALUE);
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
            return Integer.BYTES;
        }

        @Override
        protected void putCount(MutableDirectBuffer buffer, int index, int count)
        {
            buffer.putInt(index, count, byteOrder);
        }
    }
}
