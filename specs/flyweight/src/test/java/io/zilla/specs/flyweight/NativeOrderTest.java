/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static io.zilla.specs.flyweight.Buffers.encode;
import static io.zilla.specs.flyweight.Buffers.exact;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.zilla.specs.test.types.IntegersFW;
import io.zilla.specs.test.types.host.Flag;
import io.zilla.specs.test.types.host.FlagFW;
import io.zilla.specs.test.types.host.NativeDerivedFW;
import io.zilla.specs.test.types.host.NativeFW;
import io.zilla.specs.test.types.host.NativeFramedFW;
import io.zilla.specs.test.types.host.NativeUnionFW;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The host scope is {@code option byteorder native}: on this x86 machine, little-endian. */
class NativeOrderTest
{
    @BeforeAll
    static void shouldRunOnLittleEndianHost()
    {
        assertSame(ByteOrder.LITTLE_ENDIAN, ByteOrder.nativeOrder(), "these tests expect an x86 (little-endian) host");
    }

    @Test
    void shouldWriteNativeScopeLittleEndian()
    {
        final byte[] encoded = encode(new NativeFW.Builder(), b -> b
            .i16(0x0102)
            .i32(0x03040506)
            .i64(0x0708090a0b0c0d0eL)
            .u16(0xfffe)
            .u32(0xfffffffdL)
            .s16("hi")
            .pointsItem(p -> p.x(0x11121314).y(-1)));

        assertArrayEquals(bytes(
            0x02, 0x01,
            0x06, 0x05, 0x04, 0x03,
            0x0e, 0x0d, 0x0c, 0x0b, 0x0a, 0x09, 0x08, 0x07,
            0xfe, 0xff,
            0xfd, 0xff, 0xff, 0xff,
            0x02, 0x00, 'h', 'i',
            0x01, 0x00,
            0x11, 0x12, 0x13, 0x14,
            0xff, 0xff, 0xff, 0xff), encoded);

        final NativeFW value = new NativeFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(0x0102, value.i16());
        assertEquals(0x03040506, value.i32());
        assertEquals(0x0708090a0b0c0d0eL, value.i64());
        assertEquals(0xfffe, value.u16());
        assertEquals(0xfffffffdL, value.u32());
        assertEquals("hi", value.s16().asString());
        assertEquals(1, value.points().count());
        assertEquals(0x11121314, value.points().matchFirst(p -> true).x());
        assertEquals(-1, value.points().matchFirst(p -> true).y());
    }

    @Test
    void shouldWriteNetworkScopeBigEndian()
    {
        final byte[] encoded = encode(new IntegersFW.Builder(), b -> b
            .i8(0)
            .i16(0x0102)
            .i32(0x03040506)
            .i64(0x0708090a0b0c0d0eL)
            .u8(0)
            .u16(0xfffe)
            .u32(0xfffffffdL));

        assertArrayEquals(bytes(0x01, 0x02), Arrays.copyOfRange(encoded, 1, 3));
        assertArrayEquals(bytes(0x03, 0x04, 0x05, 0x06), Arrays.copyOfRange(encoded, 3, 7));
        assertArrayEquals(bytes(0x07, 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e), Arrays.copyOfRange(encoded, 7, 15));
        assertArrayEquals(bytes(0xff, 0xfe), Arrays.copyOfRange(encoded, 16, 18));
        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0xfd), Arrays.copyOfRange(encoded, 18, 22));
    }

    @Test
    void shouldReadNativeLengthAndCountPrefixesLittleEndian()
    {
        final byte[] encoded = bytes(
            0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
            0x03, 0x00, 'a', 'b', 'c',
            0x02, 0x00,
            0, 0, 0, 1, 0, 0, 0, 2,
            0, 0, 0, 3, 0, 0, 0, 4);

        final NativeFW value = new NativeFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals("abc", value.s16().asString());
        assertEquals(2, value.points().count());
        final List<Integer> coordinates = new ArrayList<>();
        value.points().forEach(p ->
        {
            coordinates.add(p.x());
            coordinates.add(p.y());
        });
        assertEquals(List.of(1, 2, 3, 4), coordinates);

        final byte[] bigEndianCount = encoded.clone();
        bigEndianCount[20] = 0x00;
        bigEndianCount[21] = 0x03;
        assertNull(new NativeFW().tryWrap(exact(bigEndianCount), 0, bigEndianCount.length));
    }

    @Test
    void shouldKeepInheritedFieldsInTheirDeclaringScopeOrder()
    {
        final byte[] encoded = encode(new NativeDerivedFW.Builder(), b -> b
            .typeId(NativeDerivedFW.TYPE_ID)
            .id(1L)
            .local(0x01020304)
            .flag(Flag.LOW_FLAG)
            .label("L")
            .moreItem(p -> p.x(5).y(6))
            .data(bytes(0xaa, 0xbb)));

        assertArrayEquals(bytes(
            0x0a, 0x0b, 0x0c, 0x0d,
            0, 0, 0, 0, 0, 0, 0, 1,
            0x04, 0x03, 0x02, 0x01,
            0x01, 0x00,
            0x02, 'L',
            0x02,
            0, 0, 0, 5, 0, 0, 0, 6,
            0x02, 0x00,
            0xaa, 0xbb), encoded);

        final NativeDerivedFW derived = new NativeDerivedFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(NativeDerivedFW.TYPE_ID, derived.typeId());
        assertEquals(1L, derived.id());
        assertEquals(0x01020304, derived.local());
        assertSame(Flag.LOW_FLAG, derived.flag());
        assertEquals("L", derived.label().asString());
        assertEquals(1, derived.more().count());
        assertEquals(2, derived.count());
        assertArrayEquals(bytes(0xaa, 0xbb), Buffers.copy(derived.data()));
    }

    @Test
    void shouldFillNativeDefaults()
    {
        final byte[] encoded = encode(new NativeDerivedFW.Builder(), b -> b.typeId(0).local(-1));

        final NativeDerivedFW derived = new NativeDerivedFW().wrap(exact(encoded), 0, encoded.length);
        assertSame(Flag.HIGH_FLAG, derived.flag());
        assertEquals(0x02, encoded[16]);
        assertEquals(0x01, encoded[17]);
        assertTrue(derived.label().isNull());
        assertEquals(0, derived.more().count());
        assertEquals(-1, derived.count());
        assertNull(derived.data());
    }

    @Test
    void shouldSwitchOnNativeDiscriminator()
    {
        final byte[] number = encode(new NativeUnionFW.Builder(), b -> b.number(0xfffffffeL));
        assertArrayEquals(bytes(0x01, 0x00, 0xfe, 0xff, 0xff, 0xff), number);
        final NativeUnionFW numberUnion = new NativeUnionFW().wrap(exact(number), 0, number.length);
        assertSame(Flag.LOW_FLAG, numberUnion.kind());
        assertEquals(NativeUnionFW.KIND_NUMBER, numberUnion.rawKind());
        assertEquals(0xfffffffeL, numberUnion.number());
        assertThrows(IllegalStateException.class, numberUnion::circle);

        final byte[] circle = encode(new NativeUnionFW.Builder(), b -> b.circle(c -> c.center(p -> p.x(1).y(2)).radius(3)));
        assertArrayEquals(bytes(0x02, 0x01, 0, 0, 0, 1, 0, 0, 0, 2, 0x00, 0x03), circle);
        final NativeUnionFW circleUnion = new NativeUnionFW().wrap(exact(circle), 0, circle.length);
        assertSame(Flag.HIGH_FLAG, circleUnion.kind());
        assertEquals(0x0102, NativeUnionFW.KIND_CIRCLE);
        assertEquals(3, circleUnion.circle().radius());
        assertThrows(IllegalStateException.class, circleUnion::number);
    }

    @Test
    void shouldRoundTripNativeEnum()
    {
        final byte[] encoded = encode(new FlagFW.Builder(), b -> b.set(Flag.HIGH_FLAG));

        assertArrayEquals(bytes(0x02, 0x01), encoded);
        assertSame(Flag.HIGH_FLAG, new FlagFW().wrap(exact(encoded), 0, 2).get());
        assertNull(new FlagFW().tryWrap(exact(bytes(0x01, 0x02)), 0, 2));
    }

    @Test
    void shouldWriteInheritedSizeFieldInItsDeclaringScopeOrder()
    {
        final byte[] encoded = encode(new NativeFramedFW.Builder(), b -> b.local(0x0102).payload(new byte[0x0103]));

        assertEquals(0x01, encoded[0]);
        assertEquals(0x03, encoded[1]);
        assertEquals(0x02, encoded[2]);
        assertEquals(0x01, encoded[3]);
        final NativeFramedFW framed = new NativeFramedFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(0x0103, framed.frameSize());
        assertEquals(0x0102, framed.local());
        assertEquals(0x0103, framed.payload().sizeof());
    }
}
