/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import java.util.function.Consumer;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Test helpers: build a value with a builder and copy out its bytes, wrap bytes in exact-capacity buffers. */
final class Buffers
{
    static final int CAPACITY = 1 << 17;

    private Buffers()
    {
    }

    /** Builds a value at offset 0 of a large buffer and returns a copy of its bytes. */
    static <T extends Flyweight, B extends Flyweight.Builder<T>> byte[] encode(B builder, Consumer<B> mutator)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[CAPACITY]);
        builder.wrap(buffer, 0, buffer.capacity());
        mutator.accept(builder);
        final T value = builder.build();
        return copy(value);
    }

    /** A copy of the bytes of {@code value}, from its offset to its limit. */
    static byte[] copy(Flyweight value)
    {
        final byte[] bytes = new byte[value.sizeof()];
        value.buffer().getBytes(value.offset(), bytes);
        return bytes;
    }

    /** A buffer over a copy of {@code bytes}, whose capacity is exactly their length. */
    static UnsafeBuffer exact(byte[] bytes)
    {
        return new UnsafeBuffer(bytes.clone());
    }

    /** A buffer of exactly {@code offset + bytes.length} bytes, with {@code bytes} at {@code offset} after filler. */
    static UnsafeBuffer at(int offset, byte[] bytes)
    {
        final byte[] all = new byte[offset + bytes.length];
        for (int i = 0; i < offset; i++)
        {
            all[i] = (byte) 0xa5;
        }
        System.arraycopy(bytes, 0, all, offset, bytes.length);
        return new UnsafeBuffer(all);
    }

    static byte[] bytes(int... values)
    {
        final byte[] bytes = new byte[values.length];
        for (int i = 0; i < values.length; i++)
        {
            bytes[i] = (byte) values[i];
        }
        return bytes;
    }

    static byte[] bytes(DirectBuffer buffer, int index, int length)
    {
        final byte[] bytes = new byte[length];
        buffer.getBytes(index, bytes);
        return bytes;
    }

    static String hex(byte[] bytes)
    {
        final StringBuilder text = new StringBuilder();
        for (byte b : bytes)
        {
            text.append(String.format("%02x", b & 0xff));
        }
        return text.toString();
    }
}
