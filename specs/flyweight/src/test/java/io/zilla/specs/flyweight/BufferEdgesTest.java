/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.stream.Stream;

import io.zilla.specs.flyweight.Samples.Sample;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Every sample value written and read at the very end of a buffer, and at a non-zero (unaligned) offset. */
class BufferEdgesTest
{
    private static final byte SENTINEL = (byte) 0x5a;

    static Stream<Sample> samples()
    {
        return Samples.all().stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldBuildIntoBufferOfExactCapacity(Sample sample)
    {
        final byte[] expected = sample.bytes();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[expected.length]);

        final Flyweight built = sample.encode(buffer, 0, buffer.capacity());

        assertEquals(0, built.offset());
        assertEquals(buffer.capacity(), built.limit());
        assertArrayEquals(expected, buffer.byteArray());

        final Flyweight read = sample.reader().wrap(buffer, 0, buffer.capacity());
        assertEquals(buffer.capacity(), read.limit());
        assertEquals(buffer.capacity(), read.maxLimit());
        Readers.readAll(read);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldBuildAndReadAtUnalignedOffset(Sample sample)
    {
        final byte[] expected = sample.bytes();
        final int offset = 7;
        final byte[] array = new byte[offset + expected.length];
        Arrays.fill(array, SENTINEL);
        final UnsafeBuffer buffer = new UnsafeBuffer(array);

        final Flyweight built = sample.encode(buffer, offset, buffer.capacity());

        assertEquals(offset, built.offset());
        assertEquals(buffer.capacity(), built.limit());
        assertArrayEquals(expected, Arrays.copyOfRange(array, offset, array.length));
        for (int i = 0; i < offset; i++)
        {
            assertEquals(SENTINEL, array[i], "byte before the offset was overwritten at " + i);
        }

        final Flyweight atOffset = sample.reader().wrap(buffer, offset, buffer.capacity());
        final Flyweight atZero = sample.reader().wrap(Buffers.exact(expected), 0, expected.length);
        assertEquals(offset, atOffset.offset());
        assertEquals(buffer.capacity(), atOffset.limit());
        assertEquals(atZero.toString().replace("offset=0", "offset=" + offset), atOffset.toString());
        Readers.readAll(atOffset);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldReadTheSameValueFromTryWrapAndWrap(Sample sample)
    {
        final byte[] bytes = sample.bytes();
        final UnsafeBuffer buffer = Buffers.at(3, bytes);

        final Flyweight reader = sample.reader();
        assertSame(reader, reader.tryWrap(buffer, 3, buffer.capacity()));
        assertEquals(buffer.capacity(), reader.limit());
        assertEquals(buffer.capacity(), reader.decode(buffer, 3, buffer.capacity()));
        assertSame(reader, reader.wrap(buffer, 3, buffer.capacity()));
        assertEquals(buffer.capacity(), reader.limit());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void shouldRefuseToBuildPastMaxLimitWithoutWritingThere(Sample sample)
    {
        final byte[] expected = sample.bytes();
        for (int maxLimit = 0; maxLimit < expected.length; maxLimit++)
        {
            final byte[] array = new byte[expected.length + 8];
            Arrays.fill(array, SENTINEL);
            final UnsafeBuffer buffer = new UnsafeBuffer(array);
            final int limit = maxLimit;

            assertThrows(IndexOutOfBoundsException.class, () -> sample.encode(buffer, 0, limit),
                "building with maxLimit " + limit + " of " + expected.length);
            for (int i = maxLimit; i < array.length; i++)
            {
                assertEquals(SENTINEL, array[i], "written at " + i + " past maxLimit " + maxLimit);
            }
        }
    }
}
