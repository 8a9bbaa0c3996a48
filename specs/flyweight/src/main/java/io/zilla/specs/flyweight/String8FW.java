/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/** A string with an int8 length prefix (IDL {@code string8}): up to 127 bytes, -1 for null. */
public final class String8FW extends StringFW
{
    public static final int MAX_LENGTH = Byte.MAX_VALUE;

    @Override
    public int decode(DirectBuffer buffer, int offset, int maxLimit)
    {
        if (offset >= maxLimit)
        {
            return TRUNCATED;
        }
        return decodeValue(buffer, offset, offset + Byte.BYTES, buffer.getByte(offset), maxLimit);
    }

    @Override
    public String8FW wrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        super.wrap(buffer, offset, maxLimit);
        return this;
    }

    @Override
    public String8FW tryWrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        return (String8FW) super.tryWrap(buffer, offset, maxLimit);
    }

    public static final class Builder extends StringFW.Builder<String8FW>
    {
        public Builder()
        {
            super(new String8FW(), MAX_LENGTH);
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
            return Byte.BYTES;
        }

        @Override
        protected void putLength(MutableDirectBuffer buffer, int index, int length)
        {
            buffer.putByte(index, (byte) length);
        }
    }
}
