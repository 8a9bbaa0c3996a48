/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** Items after a zig-zag varint32 count (IDL {@code vararray<T>}, as Kafka's record headers), -1 for null. */
public final class VarArrayFW<T extends Flyweight> extends ArrayFW<T>
{
    public VarArrayFW(T itemRO)
    {
        super(itemRO);
    }

    @Override
    protected int prefixLimit(DirectBuffer buffer, int offset, int maxLimit)
    {
        return Varints.limit32(buffer, offset, maxLimit);
    }

    @Override
    protected int readCount(DirectBuffer buffer, int offset)
    {
        return Varints.unZigZag32(Varints.readUnsigned(buffer, offset));
    }

    public static final class Builder<B extends Flyweight.Builder<T>, T extends Flyweight>
        extends ArrayFW.Builder<B, T, VarArrayFW<T>>
    {
        public Builder(B itemRW, T itemRO)
        {
            super(new VarArrayFW<>(itemRO), itemRW, Integer.MAX_VALUE);
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
            return Varints.sizeofUnsigned(Varints.zigZag32(count));
        }

        @Override
        protected void putCount(MutableDirectBuffer buffer, int index, int count)
        {
            Varints.putUnsigned(buffer, index, Varints.zigZag32(count));
        }
    }
}
