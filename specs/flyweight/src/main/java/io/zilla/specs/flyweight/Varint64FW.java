/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A zig-zag encoded signed 64-bit varint (IDL {@code varint64}). */
public final class Varint64FW extends Flyweight
{
    private long value;

    public long value()
    {
        return value;
    }

    @Override
    public int decode(DirectBuffer buffer, int offset, int maxLimit)
    {
        final int limit = Varints.limit64(buffer, offset, maxLimit);
        if (limit < 0)
        {
            return limit;
        }
        value = Varints.unZigZag64(Varints.readUnsigned(buffer, offset));
        return wrapped(buffer, offset, limit, maxLimit);
    }

    @Override
    public Varint64FW wrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        super.wrap(buffer, offset, maxLimit);
        return this;
    }

    @Override
    public Varint64FW tryWrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        return (Varint64FW) super.tryWrap(buffer, offset, maxLimit);
    }

    @Override
    public String toString()
    {
        return Long.toString(value);
    }

    public static final class Builder extends Flyweight.Builder<Varint64FW>
    {
        public Builder()
        {
            super(new Varint64FW());
        }

        @Override
        public Builder wrap(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            super.wrap(buffer, offset, maxLimit);
            return this;
        }

        public Builder set(long value)
        {
            final long raw = Varints.zigZag64(value);
            Varints.putUnsigned(buffer(), claim(Varints.sizeofUnsigned(raw)), raw);
            return this;
        }
    }
}
