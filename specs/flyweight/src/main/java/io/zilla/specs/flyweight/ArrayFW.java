/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import java.util.function.Consumer;
import java.util.function.Predicate;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Items of one type after a count prefix; a count of -1 is null. The subclasses differ only in the prefix:
 * {@link Array8FW} (int8), {@link Array16FW} (int16), {@link Array32FW} (int32, as Kafka's arrays) and
 * {@link VarArrayFW} (zig-zag varint32, as Kafka's record headers).
 * <p>
 * Every item takes at least one byte (the generator refuses item types that can be empty), so a count
 * larger than the bytes left is rejected before any item is read.
 */
public abstract class ArrayFW<T extends Flyweight> extends Flyweight
{
    private final T itemRO;

    private int count;
    private int itemsOffset;

    protected ArrayFW(T itemRO)
    {
        this.itemRO = itemRO;
    }

    /** The number of items, or -1 when the array is null. */
    public final int count()
    {
        return count;
    }

    public final boolean isNull()
    {
        return count == -1;
    }

    public final boolean isEmpty()
    {
        return count <= 0;
    }

    /** Visits each item in turn; the item passed is one reused flyweight, valid only during the call. */
    public final void forEach(Consumer<? super T> consumer)
    {
        int position = itemsOffset;
        for (int i = 0; i < count; i++)
        {
            position = itemRO.decode(buffer(), position, limit());
            consumer.accept(itemRO);
        }
    }

    /** The first item that matches, wrapped in the reused item flyweight, or {@code null}. */
    public final T matchFirst(Predicate<? super T> predicate)
    {
        int position = itemsOffset;
        for (int i = 0; i < count; i++)
        {
            position = itemRO.decode(buffer(), position, limit());
            if (predicate.test(itemRO))
            {
                return itemRO;
            }
        }
        return null;
    }

    public final boolean anyMatch(Predicate<? super T> predicate)
    {
        return matchFirst(predicate) != null;
    }

    @Override
    public final int decode(DirectBuffer buffer, int offset, int maxLimit)
    {
        final int prefixLimit = prefixLimit(buffer, offset, maxLimit);
        if (prefixLimit < 0)
        {
            return prefixLimit;
        }
        final int count = readCount(buffer, offset);
        if (count < -1)
        {
            return MALFORMED;
        }
        if (count > maxLimit - prefixLimit)
        {
            return TRUNCATED;
        }
        int limit = prefixLimit;
        for (int i = 0; i < count; i++)
        {
            limit = itemRO.decode(buffer, limit, maxLimit);
            if (limit < 0)
            {
                return limit;
            }
        }
        this.count = count;
        this.itemsOffset = prefixLimit;
        return wrapped(buffer, offset, limit, maxLimit);
    }

    @Override
    public String toString()
    {
        if (count == -1)
        {
            return "null";
        }
        final StringBuilder text = new StringBuilder("[");
        forEach(item -> text.append(text.length() > 1 ? ", " : "").append(item));
        return text.append(']').toString();
    }

    /** Where the count prefix at {@code offset} ends, or {@link #TRUNCATED} or {@link #MALFORMED}. */
    protected abstract int prefixLimit(DirectBuffer buffer, int offset, int maxLimit);

    /** Reads the count of a prefix that {@link #prefixLimit} accepted. */
    protected abstract int readCount(DirectBuffer buffer, int offset);

    /**
     * Appends items one at a time, each written in place by the item's own builder, and keeps the count
     * prefix up to date after each.
     */
    public abstract static class Builder<B extends Flyweight.Builder<T>, T extends Flyweight, A extends ArrayFW<T>>
        extends Flyweight.Builder<A>
    {
        private final B itemRW;
        private final int maxCount;

        private int count;
        private int itemsOffset;

        protected Builder(A array, B itemRW, int maxCount)
        {
            super(array);
            this.itemRW = itemRW;
            this.maxCount = maxCount;
        }

        @Override
        public Builder<B, T, A> wrap(MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            super.wrap(buffer, offset, maxLimit);
            count = 0;
            itemsOffset = claim(prefixSize(0)) + prefixSize(0);
            putCount(buffer, offset, 0);
            return this;
        }

        /** The number of items appended so far, or -1 after {@link #setNull}. */
        public final int count()
        {
            return count;
        }

        /** Appends one item, written by {@code mutator} through the item builder. */
        public final Builder<B, T, A> item(Consumer<B> mutator)
        {
            if (count == -1)
            {
                throw new IllegalStateException(builderName() + ": item after setNull()");
            }
            if (count == maxCount)
            {
                throw new IllegalStateException(builderName() + ": the count prefix holds at most " + maxCount + " items");
            }
            // keep room for a varint count that grows a byte with this item, so that an item that does not fit
            // fails in its own builder and leaves this one as it was
            final int growth = prefixSize(count + 1) - prefixSize(count);
            itemRW.wrap(buffer(), limit(), maxLimit() - growth);
            mutator.accept(itemRW);
            limit(itemRW.build().limit());
            setCount(count + 1);
            return this;
        }

        /** Makes the array null; only before any item. */
        public final Builder<B, T, A> setNull()
        {
            if (count > 0)
            {
                throw new IllegalStateException(builderName() + ": setNull() after " + count + " items");
            }
            setCount(-1);
            return this;
        }

        private void setCount(int newCount)
        {
            final int growth = prefixSize(newCount) - prefixSize(count);
            if (growth > 0)
            {
                // a varint count outgrew its bytes: move the items up to make room
                final int itemsLimit = limit();
                claim(growth);
                final MutableDirectBuffer buffer = buffer();
                for (int index = itemsLimit - 1; index >= itemsOffset; index--)
                {
                    buffer.putByte(index + growth, buffer.getByte(index));
                }
                itemsOffset += growth;
            }
            count = newCount;
            putCount(buffer(), offset(), newCount);
        }

        protected abstract int prefixSize(int count);

        protected abstract void putCount(MutableDirectBuffer buffer, int index, int count);
    }
}
