/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static io.zilla.specs.flyweight.Buffers.encode;
import static io.zilla.specs.flyweight.Buffers.exact;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;

import io.zilla.specs.test.types.CircleFW;
import io.zilla.specs.test.types.EmptyFW;
import io.zilla.specs.test.types.IntegersFW;
import io.zilla.specs.test.types.PointFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class IntegersTest
{
    @Test
    void shouldRoundTripMinimums()
    {
        final byte[] encoded = encode(new IntegersFW.Builder(), b -> b
            .i8(Byte.MIN_VALUE)
            .i16(Short.MIN_VALUE)
            .i32(Integer.MIN_VALUE)
            .i64(Long.MIN_VALUE)
            .u8(0)
            .u16(0)
            .u32(0L));

        final IntegersFW integers = new IntegersFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(Byte.MIN_VALUE, integers.i8());
        assertEquals(Short.MIN_VALUE, integers.i16());
        assertEquals(Integer.MIN_VALUE, integers.i32());
        assertEquals(Long.MIN_VALUE, integers.i64());
        assertEquals(0, integers.u8());
        assertEquals(0, integers.u16());
        assertEquals(0L, integers.u32());
        assertEquals(IntegersFW.SIZEOF, integers.sizeof());
        assertEquals(encoded.length, integers.limit());
    }

    @Test
    void shouldRoundTripMaximums()
    {
        final byte[] encoded = encode(new IntegersFW.Builder(), b -> b
            .i8(Byte.MAX_VALUE)
            .i16(Short.MAX_VALUE)
            .i32(Integer.MAX_VALUE)
            .i64(Long.MAX_VALUE)
            .u8(0xff)
            .u16(0xffff)
            .u32(0xffff_ffffL));

        final IntegersFW integers = new IntegersFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(Byte.MAX_VALUE, integers.i8());
        assertEquals(Short.MAX_VALUE, integers.i16());
        assertEquals(Integer.MAX_VALUE, integers.i32());
        assertEquals(Long.MAX_VALUE, integers.i64());
        assertEquals(0xff, integers.u8());
        assertEquals(0xffff, integers.u16());
        assertEquals(0xffff_ffffL, integers.u32());
    }

    @Test
    void shouldRoundTripSmallValuesAroundZero()
    {
        final byte[] encoded = encode(new IntegersFW.Builder(), b -> b
            .i8(-1)
            .i16(-1)
            .i32(-1)
            .i64(-1L)
            .u8(0x80)
            .u16(0x8000)
            .u32(0x8000_0000L));

        final IntegersFW integers = new IntegersFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(-1, integers.i8());
        assertEquals(-1, integers.i16());
        assertEquals(-1, integers.i32());
        assertEquals(-1L, integers.i64());
        assertEquals(0x80, integers.u8());
        assertEquals(0x8000, integers.u16());
        assertEquals(0x8000_0000L, integers.u32());
    }

    @Test
    void shouldWriteBigEndianWithoutPadding()
    {
        final byte[] encoded = encode(new IntegersFW.Builder(), b -> b
            .i8(0x01)
            .i16(0x0203)
            .i32(0x04050607)
            .i64(0x08090a0b0c0d0e0fL)
            .u8(0x10)
            .u16(0x1112)
            .u32(0x13141516L));

        assertArrayEquals(bytes(
            0x01,
            0x02, 0x03,
            0x04, 0x05, 0x06, 0x07,
            0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f,
            0x10,
            0x11, 0x12,
            0x13, 0x14, 0x15, 0x16), encoded);
        assertEquals(22, IntegersFW.SIZEOF);
    }

    @Test
    void shouldReadUnsignedFromHighBitBytes()
    {
        final byte[] encoded = new byte[IntegersFW.SIZEOF];
        Arrays.fill(encoded, (byte) 0xff);

        final IntegersFW integers = new IntegersFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(-1, integers.i8());
        assertEquals(-1, integers.i16());
        assertEquals(-1, integers.i32());
        assertEquals(-1L, integers.i64());
        assertEquals(255, integers.u8());
        assertEquals(65535, integers.u16());
        assertEquals(4294967295L, integers.u32());
        assertEquals("IntegersFW[i8=-1, i16=-1, i32=-1, i64=-1, u8=255, u16=65535, u32=4294967295]", integers.toString());
    }

    @Test
    void shouldRoundTripNestedStruct()
    {
        final byte[] encoded = encode(new CircleFW.Builder(), b -> b
            .center(c -> c.x(-3).y(Integer.MAX_VALUE))
            .radius(65535));

        final CircleFW circle = new CircleFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(PointFW.SIZEOF + 2, circle.sizeof());
        assertEquals(-3, circle.center().x());
        assertEquals(Integer.MAX_VALUE, circle.center().y());
        assertEquals(0, circle.center().offset());
        assertEquals(PointFW.SIZEOF, circle.center().limit());
        assertEquals(65535, circle.radius());
    }

    @Test
    void shouldCopyNestedStructFromFlyweight()
    {
        final byte[] point = encode(new PointFW.Builder(), b -> b.x(7).y(-7));
        final PointFW source = new PointFW().wrap(exact(point), 0, point.length);

        final byte[] encoded = encode(new CircleFW.Builder(), b -> b.center(source).radius(1));

        final CircleFW circle = new CircleFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(7, circle.center().x());
        assertEquals(-7, circle.center().y());
        assertEquals(1, circle.radius());
    }

    @Test
    void shouldRoundTripEmptyStruct()
    {
        final byte[] encoded = encode(new EmptyFW.Builder(), b ->
        {
        });

        assertEquals(0, encoded.length);
        final EmptyFW empty = new EmptyFW().wrap(new UnsafeBuffer(new byte[4]), 4, 4);
        assertEquals(4, empty.offset());
        assertEquals(4, empty.limit());
        assertEquals(0, empty.sizeof());
    }
}
