/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A string with a zig-zag varint32 length prefix (IDL {@code varstring}), -1 for null,
 * as the keys of Kafka record headers.
 */
public final class VarStringFW extends StringFW
{
    public static final int MAX_LENGTH = Integer.MAX_VALUE;

    @Override
    public int decode(DirectBuffer buffer, int offset, int maxLimit)
    {
        final int valueOffset = Varints.limit32(buffer, offset, maxLimit);
        if (valueOffset < 0)
        {
            return valueOffset;
        }
        final int length = Varints.unZigZag32(Varints.readUnsigned(buffer, offset));
        return decodeValue(buffer, offset, valueOffset, length, maxLimit);
    }

    @Override
    public VarStringFW wrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        super.wrap(buffer, offset, maxLimit);
        return this;
    }

    @Override
    public VarStringFW tryWrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        return (VarStringFW) super.tryWrap(buffer, offset, maxLimit);
    }

    public static final class Builder extends StringFW.Builder<VarStringFW>
    {
        public Builder()
        {
            super(new VarStringFW(), MAX_LENGTH);
        }

        @Override
        public Builder wrap(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            super.wrap(buffer, offset, maxLimit);
            return this;
        }

        @Override
        protected int prefixSize(int length)
        {
            return Varints.sizeofUnsigned(Varints.zigZag32(length));
        }

        @Override
        protected void putLength(MutableDirectBuffer buffer, int index, int length)
        {
            Varints.putUnsigned(buffer, index, Varints.zigZag32(length));
        }
    }
}
