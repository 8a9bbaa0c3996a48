/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static io.zilla.specs.flyweight.Buffers.encode;
import static io.zilla.specs.flyweight.Buffers.exact;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.zilla.specs.test.types.VarintsFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class VarintsTest
{
    @ParameterizedTest(name = "varint32 {0} takes {1} bytes")
    @CsvSource({
        "0, 1",
        "-1, 1",
        "1, 1",
        "63, 1",
        "64, 2",
        "-64, 1",
        "-65, 2",
        "8191, 2",
        "8192, 3",
        "-8192, 2",
        "-8193, 3",
        "1048575, 3",
        "1048576, 4",
        "134217727, 4",
        "134217728, 5",
        "-134217729, 5",
        "2147483647, 5",
        "-2147483648, 5"
    })
    void shouldRoundTripVarint32(int value, int size)
    {
        final byte[] encoded = encode(new Varint32FW.Builder(), b -> b.set(value));
        assertEquals(size, encoded.length);

        final Varint32FW varint = new Varint32FW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(value, varint.value());
        assertEquals(size, varint.sizeof());
        assertEquals(Integer.toString(value), varint.toString());
        assertEquals(size, Varints.sizeofUnsigned(Varints.zigZag32(value)));
    }

    @ParameterizedTest(name = "varint64 {0} takes {1} bytes")
    @CsvSource({
        "0, 1",
        "63, 1",
        "64, 2",
        "-64, 1",
        "-65, 2",
        "8191, 2",
        "8192, 3",
        "2147483647, 5",
        "-2147483648, 5",
        "17179869183, 5",
        "17179869184, 6",
        "4611686018427387903, 9",
        "4611686018427387904, 10",
        "-4611686018427387904, 9",
        "-4611686018427387905, 10",
        "9223372036854775807, 10",
        "-9223372036854775808, 10"
    })
    void shouldRoundTripVarint64(long value, int size)
    {
        final byte[] encoded = encode(new Varint64FW.Builder(), b -> b.set(value));
        assertEquals(size, encoded.length);

        final Varint64FW varint = new Varint64FW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(value, varint.value());
        assertEquals(size, varint.sizeof());
        assertEquals(Long.toString(value), varint.toString());
    }

    @ParameterizedTest(name = "varuint32 {0} takes {1} bytes")
    @CsvSource({
        "0, 1",
        "1, 1",
        "127, 1",
        "128, 2",
        "16383, 2",
        "16384, 3",
        "2097151, 3",
        "2097152, 4",
        "268435455, 4",
        "268435456, 5",
        "2147483648, 5",
        "4294967295, 5"
    })
    void shouldRoundTripVaruint32(long value, int size)
    {
        final byte[] encoded = encode(new Varuint32FW.Builder(), b -> b.set(value));
        assertEquals(size, encoded.length);

        final Varuint32FW varint = new Varuint32FW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(value, varint.value());
        assertEquals(size, varint.sizeof());
    }

    @ParameterizedTest(name = "varints {0}, {1}, {2} take {3} bytes")
    @CsvSource({
        "0, 0, 0, 3",
        "63, 63, 127, 3",
        "64, 64, 128, 6",
        "-64, -64, 16383, 4",
        "-65, -65, 16384, 7",
        "8191, 8191, 0, 5",
        "8192, -8193, 1, 7",
        "2147483647, 9223372036854775807, 4294967295, 20",
        "-2147483648, -9223372036854775808, 0, 16"
    })
    void shouldRoundTripVarintsStruct(int v32, long v64, long vu32, int size)
    {
        final byte[] encoded = encode(new VarintsFW.Builder(), b -> b.v32(v32).v64(v64).vu32(vu32));
        assertEquals(size, encoded.length);

        final VarintsFW varints = new VarintsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(v32, varints.v32());
        assertEquals(v64, varints.v64());
        assertEquals(vu32, varints.vu32());
        assertEquals(size, varints.sizeof());
        assertEquals(encoded.length, varints.limit());
    }

    @Test
    void shouldEncodeZigZagLeastSignificantGroupFirst()
    {
        assertArrayEquals(bytes(0x00), encode(new Varint32FW.Builder(), b -> b.set(0)));
        assertArrayEquals(bytes(0x01), encode(new Varint32FW.Builder(), b -> b.set(-1)));
        assertArrayEquals(bytes(0x02), encode(new Varint32FW.Builder(), b -> b.set(1)));
        assertArrayEquals(bytes(0x7e), encode(new Varint32FW.Builder(), b -> b.set(63)));
        assertArrayEquals(bytes(0x7f), encode(new Varint32FW.Builder(), b -> b.set(-64)));
        assertArrayEquals(bytes(0x80, 0x01), encode(new Varint32FW.Builder(), b -> b.set(64)));
        assertArrayEquals(bytes(0x81, 0x01), encode(new Varint32FW.Builder(), b -> b.set(-65)));
        assertArrayEquals(bytes(0xac, 0x02), encode(new Varint32FW.Builder(), b -> b.set(150)));
        assertArrayEquals(bytes(0xfe, 0xff, 0xff, 0xff, 0x0f), encode(new Varint32FW.Builder(), b -> b.set(Integer.MAX_VALUE)));
        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0xff, 0x0f), encode(new Varint32FW.Builder(), b -> b.set(Integer.MIN_VALUE)));
        assertArrayEquals(bytes(0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
            encode(new Varint64FW.Builder(), b -> b.set(Long.MAX_VALUE)));
        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01),
            encode(new Varint64FW.Builder(), b -> b.set(Long.MIN_VALUE)));
        assertArrayEquals(bytes(0x96, 0x01), encode(new Varuint32FW.Builder(), b -> b.set(150L)));
        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0xff, 0x0f), encode(new Varuint32FW.Builder(), b -> b.set(0xffff_ffffL)));
    }

    @Test
    void shouldDecodeNonMinimalEncodings()
    {
        final Varint32FW varint = new Varint32FW().wrap(exact(bytes(0x80, 0x80, 0x00)), 0, 3);
        assertEquals(0, varint.value());
        assertEquals(3, varint.sizeof());

        final Varuint32FW unsigned = new Varuint32FW().wrap(exact(bytes(0x81, 0x80, 0x80, 0x80, 0x00)), 0, 5);
        assertEquals(1L, unsigned.value());
    }

    @Test
    void shouldStopAtTheFirstByteWithoutContinuationBit()
    {
        final UnsafeBuffer buffer = exact(bytes(0x80, 0x01, 0x02, 0x03));

        final Varint32FW varint = new Varint32FW().wrap(buffer, 0, buffer.capacity());

        assertEquals(64, varint.value());
        assertEquals(2, varint.limit());
        assertEquals(4, varint.maxLimit());
    }

    @Test
    void shouldZigZagBothWays()
    {
        final int[] ints = {0, 1, -1, 2, -2, 63, -64, Integer.MAX_VALUE, Integer.MIN_VALUE, 0x5555_5555, 0xaaaa_aaaa};
        for (int value : ints)
        {
            final long raw = Varints.zigZag32(value);
            assertEquals(value, Varints.unZigZag32(raw), "varint32 " + value);
            assertEquals(raw, raw & 0xffff_ffffL, "varint32 zig-zag fits 32 bits " + value);
        }
        assertEquals(0L, Varints.zigZag32(0));
        assertEquals(1L, Varints.zigZag32(-1));
        assertEquals(2L, Varints.zigZag32(1));
        assertEquals(0xffff_fffeL, Varints.zigZag32(Integer.MAX_VALUE));
        assertEquals(0xffff_ffffL, Varints.zigZag32(Integer.MIN_VALUE));

        final long[] longs = {0L, 1L, -1L, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 62, -(1L << 62)};
        for (long value : longs)
        {
            assertEquals(value, Varints.unZigZag64(Varints.zigZag64(value)), "varint64 " + value);
        }
        assertEquals(-2L, Varints.zigZag64(Long.MAX_VALUE));
        assertEquals(-1L, Varints.zigZag64(Long.MIN_VALUE));
    }

    @Test
    void shouldSizeUnsignedValues()
    {
        assertEquals(1, Varints.sizeofUnsigned(0L));
        assertEquals(1, Varints.sizeofUnsigned(0x7fL));
        assertEquals(2, Varints.sizeofUnsigned(0x80L));
        assertEquals(2, Varints.sizeofUnsigned(0x3fffL));
        assertEquals(3, Varints.sizeofUnsigned(0x4000L));
        assertEquals(5, Varints.sizeofUnsigned(0xffff_ffffL));
        assertEquals(9, Varints.sizeofUnsigned(Long.MAX_VALUE));
        assertEquals(10, Varints.sizeofUnsigned(-1L));
    }

    @Test
    void shouldPutAndReadUnsignedAtAnOffset()
    {
        final long[] values = {0L, 1L, 127L, 128L, 300L, 0xffff_ffffL, Long.MAX_VALUE, -1L};
        for (long value : values)
        {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[3 + Varints.sizeofUnsigned(value)]);
            final int limit = Varints.putUnsigned(buffer, 3, value);
            assertEquals(buffer.capacity(), limit, "limit of " + value);
            assertEquals(value, Varints.readUnsigned(buffer, 3), "value " + value);
            assertEquals(limit, Varints.limit64(buffer, 3, limit), "limit64 of " + value);
        }
    }

    @Test
    void shouldFindLimitsAndStatuses()
    {
        final UnsafeBuffer five = exact(bytes(0xff, 0xff, 0xff, 0xff, 0x0f));
        assertEquals(5, Varints.limit32(five, 0, 5));
        assertEquals(Flyweight.TRUNCATED, Varints.limit32(five, 0, 4));
        assertEquals(Flyweight.TRUNCATED, Varints.limit32(five, 0, 0));

        final UnsafeBuffer wide = exact(bytes(0xff, 0xff, 0xff, 0xff, 0x10));
        assertEquals(Flyweight.MALFORMED, Varints.limit32(wide, 0, 5));
        assertEquals(5, Varints.limit64(wide, 0, 5));

        final UnsafeBuffer six = exact(bytes(0x80, 0x80, 0x80, 0x80, 0x80, 0x00));
        assertEquals(Flyweight.MALFORMED, Varints.limit32(six, 0, 6));
        assertEquals(6, Varints.limit64(six, 0, 6));

        final UnsafeBuffer ten = exact(bytes(0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01));
        assertEquals(10, Varints.limit64(ten, 0, 10));
        ten.putByte(9, (byte) 0x02);
        assertEquals(Flyweight.MALFORMED, Varints.limit64(ten, 0, 10));
        ten.putByte(9, (byte) 0x81);
        assertEquals(Flyweight.MALFORMED, Varints.limit64(ten, 0, 10));
    }
}
