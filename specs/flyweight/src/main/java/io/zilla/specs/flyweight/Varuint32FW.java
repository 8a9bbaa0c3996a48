/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** An unsigned 32-bit varint (IDL {@code varuint32}); its value, 0 to 2^32-1, is read as a long. */
public final class Varuint32FW extends Flyweight
{
    public static final long MAX_VALUE = 0xffff_ffffL;

    private long value;

    public long value()
    {
        return value;
    }

    @Override
    public int decode(DirectBuffer buffer, int offset, int maxLimit)
    {
        final int limit = Varints.limit32(buffer, offset, maxLimit);
        if (limit < 0)
        {
            return limit;
        }
        value = Varints.readUnsigned(buffer, offset);
        return wrapped(buffer, offset, limit, maxLimit);
    }

    @Override
    public Varuint32FW wrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        super.wrap(buffer, offset, maxLimit);
        return this;
    }

    @Override
    public Varuint32FW tryWrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        return (Varuint32FW) super.tryWrap(buffer, offset, maxLimit);
    }

    @Override
    public String toString()
    {
        return Long.toString(value);
    }

    public static final class Builder extends Flyweight.Builder<Varuint32FW>
    {
        public Builder()
        {
            super(new Varuint32FW());
        }

        @Override
        public Builder wrap(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            super.wrap(buffer, offset, maxLimit);
            return this;
        }

        public Builder set(long value)
        {
            if (value < 0 || value > MAX_VALUE)
            {
                throw outOfRange("value", value, 0, MAX_VALUE);
            }
            Varints.putUnsigned(buffer(), claim(Varints.sizeofUnsigned(value)), value);
            return this;
        }
    }
}
