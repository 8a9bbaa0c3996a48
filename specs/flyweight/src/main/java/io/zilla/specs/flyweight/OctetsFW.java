/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Raw bytes: every byte from offset up to maxLimit. A struct bounds them for a sized field
 * ({@code octets[4]}, {@code octets[length]}) by wrapping with the exact end as maxLimit; a trailing
 * {@code octets} field takes all that is left.
 */
public final class OctetsFW extends Flyweight
{
    @Override
    public int decode(DirectBuffer buffer, int offset, int maxLimit)
    {
        return offset > maxLimit ? TRUNCATED : wrapped(buffer, offset, maxLimit, maxLimit);
    }

    @Override
    public OctetsFW wrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        super.wrap(buffer, offset, maxLimit);
        return this;
    }

    @Override
    public OctetsFW tryWrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        return (OctetsFW) super.tryWrap(buffer, offset, maxLimit);
    }

    /** Copies the bytes into {@code target} at {@code index}. */
    public void copyTo(MutableDirectBuffer target, int index)
    {
        target.putBytes(index, buffer(), offset(), sizeof());
    }

    /** Whether these bytes equal {@code length} bytes of {@code other} at {@code index}. */
    public boolean contentEquals(DirectBuffer other, int index, int length)
    {
        return length == sizeof() && Bytes.equal(buffer(), offset(), other, index, length);
    }

    @Override
    public String toString()
    {
        return "octets[" + sizeof() + "]";
    }

    public static final class Builder extends Flyweight.Builder<OctetsFW>
    {
        public Builder()
        {
            super(new OctetsFW());
        }

        @Override
        public Builder wrap(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            super.wrap(buffer, offset, maxLimit);
            return this;
        }

        /** Appends {@code length} bytes of {@code source} from {@code index}. */
        public Builder put(DirectBuffer source, int index, int length)
        {
            buffer().putBytes(claim(length), source, index, length);
            return this;
        }

        public Builder put(byte[] source)
        {
            buffer().putBytes(claim(source.length), source);
            return this;
        }

        public Builder put(OctetsFW source)
        {
            return put(source.buffer(), source.offset(), source.sizeof());
        }
    }
}
