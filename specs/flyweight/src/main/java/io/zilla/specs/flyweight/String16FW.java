/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import java.nio.ByteOrder;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A string with an int16 length prefix (IDL {@code string16}): up to 32767 bytes, -1 for null,
 * as Kafka's nullable strings. The prefix is in network byte order unless a native scope says otherwise.
 */
public final class String16FW extends StringFW
{
    public static final int MAX_LENGTH = Short.MAX_VALUE;

    private final ByteOrder byteOrder;

    public String16FW()
    {
        this(ByteOrder.BIG_ENDIAN);
    }

    public String16FW(ByteOrder byteOrder)
    {
        this.byteOrder = byteOrder;
    }

    @Override
    public int decode(DirectBuffer buffer, int offset, int maxLimit)
    {
        if (maxLimit - offset < Short.BYTES)
        {
            return TRUNCATED;
        }
        return decodeValue(buffer, offset, offset + Short.BYTES, buffer.getShort(offset, byteOrder), maxLimit);
    }

    @Override
    public String16FW wrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        super.wrap(buffer, offset, maxLimit);
        return this;
    }

    @Override
    public String16FW tryWrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        return (String16FW) super.tryWrap(buffer, offset, maxLimit);
    }

    public static final class Builder extends StringFW.Builder<String16FW>
    {
        private final ByteOrder byteOrder;

        public Builder()
        {
            this(ByteOrder.BIG_ENDIAN);
        }

        public Builder(ByteOrder byteOrder)
        {
            super(new String16FW(byteOrder), MAX_LENGTH);
            this.byteOrder = byteOrder;
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
            return Short.BYTES;
        }

        @Override
        protected void putLength(MutableDirectBuffer buffer, int index, int length)
        {
            buffer.putShort(index, (short) length, byteOrder);
        }
    }
}
