/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A view over bytes in place: {@link #wrap} or {@link #tryWrap} a region of a buffer, then read its fields.
 * <p>
 * Every flyweight, hand-written or generated, validates in one method, {@link #decode}: it checks that the bytes
 * between {@code offset} and {@code maxLimit} hold a whole, well-formed value and returns where it ends, or a
 * negative status. Decoding never reads at or past {@code maxLimit} and allocates nothing.
 */
public abstract class Flyweight
{
    /** {@link #decode} status: the value does not fit between offset and maxLimit. */
    public static final int TRUNCATED = -1;

    /** {@link #decode} status: the bytes are not a valid value (a bad length, enum constant or union kind...). */
    public static final int MALFORMED = -2;

    private DirectBuffer buffer;
    private int offset;
    private int limit;
    private int maxLimit;

    public final DirectBuffer buffer()
    {
        return buffer;
    }

    public final int offset()
    {
        return offset;
    }

    /** The index just past the last byte of this value. */
    public final int limit()
    {
        return limit;
    }

    public final int maxLimit()
    {
        return maxLimit;
    }

    /** The size of this value in bytes. */
    public final int sizeof()
    {
        return limit - offset;
    }

    /**
     * Validates and wraps the value at {@code offset}, reading nothing at or past {@code maxLimit}.
     * The caller guarantees {@code 0 <= offset <= maxLimit <= buffer.capacity()}
     * ({@link #wrap} and {@link #tryWrap} check that for it).
     *
     * @return the limit of the value, or {@link #TRUNCATED} or {@link #MALFORMED}
     */
    public abstract int decode(DirectBuffer buffer, int offset, int maxLimit);

    /**
     * Wraps the value at {@code offset}.
     *
     * @throws IndexOutOfBoundsException when the value does not fit before {@code maxLimit}
     * @throws IllegalArgumentException when the bytes are not a valid value
     */
    public Flyweight wrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        checkRegion(buffer, offset, maxLimit);
        final int status = decode(buffer, offset, maxLimit);
        if (status < 0)
        {
            throw decodeFailure(status, offset, maxLimit);
        }
        return this;
    }

    /**
     * Wraps the value at {@code offset} when it is whole and valid: the way to read untrusted bytes.
     *
     * @return this flyweight, or {@code null} when the region is out of the buffer or the bytes are truncated or malformed
     */
    public Flyweight tryWrap(DirectBuffer buffer, int offset, int maxLimit)
    {
        return !inBuffer(buffer, offset, maxLimit) || decode(buffer, offset, maxLimit) < 0 ? null : this;
    }

    @Override
    public String toString()
    {
        return String.format("%s[offset=%d, limit=%d]", getClass().getSimpleName(), offset, limit);
    }

    /** Records a successful decode; generated {@link #decode} methods end with it. */
    protected final int wrapped(DirectBuffer buffer, int offset, int limit, int maxLimit)
    {
        this.buffer = buffer;
        this.offset = offset;
        this.limit = limit;
        this.maxLimit = maxLimit;
        return limit;
    }

    private static boolean inBuffer(DirectBuffer buffer, int offset, int maxLimit)
    {
        // offset <= maxLimit too: a value that takes no bytes (an empty struct) must not start past maxLimit
        return 0 <= offset && offset <= maxLimit && maxLimit <= buffer.capacity();
    }

    private void checkRegion(DirectBuffer buffer, int offset, int maxLimit)
    {
        if (!inBuffer(buffer, offset, maxLimit))
        {
            throw new IndexOutOfBoundsException(String.format("%s: region [%d, %d) is outside a buffer of capacity %d",
                getClass().getSimpleName(), offset, maxLimit, buffer.capacity()));
        }
    }

    private RuntimeException decodeFailure(int status, int offset, int maxLimit)
    {
        final String name = getClass().getSimpleName();
        return status == TRUNCATED
            ? new IndexOutOfBoundsException(String.format("%s: truncated: the value at %d does not end before maxLimit %d",
                name, offset, maxLimit))
            : new IllegalArgumentException(String.format("%s: malformed value at %d (maxLimit %d)", name, offset, maxLimit));
    }

    /**
     * Writes a value field by field, in declaration order, into a region of a mutable buffer.
     * <p>
     * A generated builder numbers its fields. Setting field {@code n} first fills in the defaults of the
     * skipped fields before it, and fails when one of them has no default; setting a field at or before
     * the last one set is an error. {@link #build} fills in the remaining defaults and wraps the result.
     */
    public abstract static class Builder<T extends Flyweight>
    {
        private final T flyweight;
        private final String[] fieldNames;
        private final UnsafeBuffer bytesRO = new UnsafeBuffer(0L, 0);

        private MutableDirectBuffer buffer;
        private int offset;
        private int limit;
        private int maxLimit;
        private int lastFieldSet;

        protected Builder(T flyweight)
        {
            this(flyweight, new String[0]);
        }

        protected Builder(T flyweight, String[] fieldNames)
        {
            this.flyweight = flyweight;
            this.fieldNames = fieldNames;
        }

        public final MutableDirectBuffer buffer()
        {
            return buffer;
        }

        public final int offset()
        {
            return offset;
        }

        /** The index just past the last byte written so far. */
        public final int limit()
        {
            return limit;
        }

        public final int maxLimit()
        {
            return maxLimit;
        }

        /**
         * Starts a new value at {@code offset}; nothing will be written at or past {@code maxLimit}.
         */
        public Builder<T> wrap(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            if (offset < 0 || offset > maxLimit || maxLimit > buffer.capacity())
            {
                throw new IndexOutOfBoundsException(String.format("%s: region [%d, %d) is outside a buffer of capacity %d",
                    builderName(), offset, maxLimit, buffer.capacity()));
            }
            this.buffer = buffer;
            this.offset = offset;
            this.limit = offset;
            this.maxLimit = maxLimit;
            this.lastFieldSet = -1;
            return this;
        }

        /** Fills in the defaults of the fields not set, then wraps and returns the value written. */
        public T build()
        {
            if (buffer == null)
            {
                throw new IllegalStateException(builderName() + ": build() before wrap()");
            }
            prepare(fieldNames.length);
            flyweight.wrap(buffer, offset, limit);
            return flyweight;
        }

        /** Moves the limit, for builders that write a value in place and then report where it ends. */
        protected final void limit(int limit)
        {
            this.limit = limit;
        }

        /**
         * Reserves {@code size} bytes at the limit and returns their index.
         *
         * @throws IndexOutOfBoundsException when they do not fit before maxLimit
         */
        protected final int claim(int size)
        {
            final int position = limit;
            if (size < 0 || size > maxLimit - position)
            {
                throw new IndexOutOfBoundsException(String.format("%s: %d bytes at %d do not fit before maxLimit %d",
                    builderName(), size, position, maxLimit));
            }
            limit = position + size;
            return position;
        }

        /**
         * Checks field {@code index} comes after the last field set, and fills in the defaults of the fields
         * in between.
         */
        protected final void prepare(int index)
        {
            // the common case, fields set in order one after another, costs one comparison
            if (index != lastFieldSet + 1)
            {
                prepareOutOfSequence(index);
            }
        }

        private void prepareOutOfSequence(int index)
        {
            if (index <= lastFieldSet)
            {
                throw new IllegalStateException(String.format("%s: %s set out of order: %s was already set",
                    builderName(), fieldNames[index], fieldNames[lastFieldSet]));
            }
            while (lastFieldSet + 1 < index)
            {
                fillDefault(lastFieldSet + 1);
            }
        }

        protected final void fieldSet(int index)
        {
            lastFieldSet = index;
        }

        protected final int lastFieldSet()
        {
            return lastFieldSet;
        }

        /**
         * Writes the default of field {@code index}, which must mark it set; the generated override knows them.
         *
         * @throws IllegalStateException when the field has no default
         */
        protected void fillDefault(int index)
        {
            throw missingField(index);
        }

        /** A reused view of {@code bytes}, so that byte-array setters can share the buffer setters' code. */
        protected final DirectBuffer view(byte[] bytes)
        {
            bytesRO.wrap(bytes);
            return bytesRO;
        }

        protected final IllegalStateException missingField(int index)
        {
            return new IllegalStateException(String.format("%s: %s is required but was not set", builderName(),
                fieldNames[index]));
        }

        protected final IllegalArgumentException outOfRange(String field, long value, long min, long max)
        {
            return new IllegalArgumentException(String.format("%s: %s %d is out of range [%d, %d]", builderName(),
                field, value, min, max));
        }

        protected final String builderName()
        {
            return flyweight.getClass().getSimpleName() + ".Builder";
        }
    }
}
