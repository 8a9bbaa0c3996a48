/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static java.nio.charset.StandardCharsets.UTF_8;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A length-prefixed UTF-8 string; a length of -1 is null. The subclasses differ only in the prefix:
 * {@link String8FW} (int8), {@link String16FW} (int16) and {@link VarStringFW} (zig-zag varint32).
 */
public abstract class StringFW extends Flyweight
{
    private final UnsafeBuffer valueRO = new UnsafeBuffer(0L, 0);

    private int length;
    private int valueOffset;

    /** The length of the string in bytes, or -1 when it is null. */
    public final int length()
    {
        return length;
    }

    public final boolean isNull()
    {
        return length == -1;
    }

    /** The bytes of the string, without allocating; {@code null} when the string is null. */
    public final DirectBuffer value()
    {
        if (length == -1)
        {
            return null;
        }
        valueRO.wrap(buffer(), valueOffset, length);
        return valueRO;
    }

    /** The index of the first byte of the string. */
    public final int valueOffset()
    {
        return valueOffset;
    }

    /** Decodes the string as a Java {@link String} (allocating), or {@code null}. */
    public final String asString()
    {
        return length == -1 ? null : buffer().getStringWithoutLengthUtf8(valueOffset, length);
    }

    /** Whether this string holds the same bytes as {@code other}; two nulls are equal. */
    public final boolean contentEquals(StringFW other)
    {
        return length == other.length
            && (length <= 0 || Bytes.equal(buffer(), valueOffset, other.buffer(), other.valueOffset, length));
    }

    @Override
    public String toString()
    {
        return length == -1 ? "null" : '"' + asString() + '"';
    }

    /** Records a decoded length prefix: the string's bytes start at {@code valueOffset}. */
    protected final int decodeValue(DirectBuffer buffer, int offset, int valueOffset, int length, int maxLimit)
    {
        if (length < -1)
        {
            return MALFORMED;
        }
        final int size = Math.max(length, 0);
        if (size > maxLimit - valueOffset)
        {
            return TRUNCATED;
        }
        this.length = length;
        this.valueOffset = valueOffset;
        return wrapped(buffer, offset, valueOffset + size, maxLimit);
    }

    public abstract static class Builder<T extends StringFW> extends Flyweight.Builder<T>
    {
        private final int maxLength;

        protected Builder(T flyweight, int maxLength)
        {
            super(flyweight);
            this.maxLength = maxLength;
        }

        /** Writes a null string. */
        public Builder<T> setNull()
        {
            putPrefix(-1);
            return this;
        }

        /** Writes {@code value} as UTF-8 (allocating; use the {@link DirectBuffer} form on the data path). */
        public Builder<T> set(String value)
        {
            if (value == null)
            {
                return setNull();
            }
            final byte[] bytes = value.getBytes(UTF_8);
            buffer().putBytes(putPrefix(bytes.length), bytes);
            return this;
        }

        /** Writes {@code length} bytes of {@code source} from {@code index}. */
        public Builder<T> set(DirectBuffer source, int index, int length)
        {
            buffer().putBytes(putPrefix(length), source, index, length);
            return this;
        }

        /** Copies another string of any prefix, null included. */
        public Builder<T> set(StringFW value)
        {
            return value.isNull() ? setNull() : set(value.buffer(), value.valueOffset(), value.length());
        }

        /** Writes the length prefix and claims room for the bytes; returns the index of the first byte. */
        private int putPrefix(int length)
        {
            if (length < -1 || length > maxLength)
            {
                throw outOfRange("length", length, -1, maxLength);
            }
            final int prefixSize = prefixSize(length);
            final int position = claim(prefixSize + Math.max(length, 0));
            putLength(buffer(), position, length);
            return position + prefixSize;
        }

        protected abstract int prefixSize(int length);

        protected abstract void putLength(MutableDirectBuffer buffer, int index, int length);
    }
}
