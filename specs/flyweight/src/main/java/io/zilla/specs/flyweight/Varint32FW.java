/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A zig-zag encoded signed 32-bit varint (IDL {@code varint32}). */
public final class Varint32FW extends Flyweight
{
    private int value;

    public int value()
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
        value = Varints.unZigZag32(Varints.readUnsigned(buffer, offset));
        return wrapped(buffer, offset, limit, maxLimit);
    }

    @Override
    public Varint32FW wrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        super.wrap(buffer, offset, maxLimit);
        return this;
    }

    @Override
    public Varint32FW tryWrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        return (Varint32FW) super.tryWrap(buffer, offset, maxLimit);
    }

    @Override
    public String toString()
    {
        return Integer.toString(value);
    }

    public static final class Builder extends Flyweight.Builder<Varint32FW>
    {
        public Builder()
        {
            super(new Varint32FW());
        }

        @Override
        public Builder wrap(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            super.wrap(buffer, offset, maxLimit);
            return this;
        }

        public Builder set(int value)
        {
            final long raw = Varints.zigZag32(value);
            Varints.putUnsigned(buffer(), claim(Varints.sizeofUnsigned(raw)), raw);
            return this;
        }
    }
}
