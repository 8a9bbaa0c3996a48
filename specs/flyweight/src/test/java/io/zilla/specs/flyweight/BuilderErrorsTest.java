/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;

import io.zilla.specs.test.types.ArraysFW;
import io.zilla.specs.test.types.BlobsFW;
import io.zilla.specs.test.types.CircleFW;
import io.zilla.specs.test.types.Color;
import io.zilla.specs.test.types.ColorFW;
import io.zilla.specs.test.types.ConditionFW;
import io.zilla.specs.test.types.DefaultsFW;
import io.zilla.specs.test.types.DerivedFW;
import io.zilla.specs.test.types.EntryFW;
import io.zilla.specs.test.types.IntegersFW;
import io.zilla.specs.test.types.LeveledFW;
import io.zilla.specs.test.types.Method;
import io.zilla.specs.test.types.MethodFW;
import io.zilla.specs.test.types.MixedFW;
import io.zilla.specs.test.types.PointFW;
import io.zilla.specs.test.types.ShapeFW;
import io.zilla.specs.test.types.SizeFieldsFW;
import io.zilla.specs.test.types.StringsFW;
import io.zilla.specs.test.types.TypedefsFW;
import io.zilla.specs.test.types.VarintsFW;
import io.zilla.specs.test.types.host.NativeDerivedFW;
import io.zilla.specs.test.types.host.NativeFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class BuilderErrorsTest
{
    private static final int SIZE = 256;

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[SIZE]);

    @Test
    void shouldRejectSetterOutOfOrder()
    {
        final IntegersFW.Builder integers = new IntegersFW.Builder().wrap(buffer, 0, SIZE).i8(1).i16(2);
        assertIllegalState("set out of order", () -> integers.i8(1));
        assertIllegalState("set out of order", () -> integers.i16(2));
        assertEquals(3, integers.limit());
        integers.i32(3);
        assertEquals(7, integers.limit());

        final DerivedFW.Builder derived = new DerivedFW.Builder().wrap(buffer, 0, SIZE).typeId(1).name("n");
        assertIllegalState("set out of order", () -> derived.id(1L));
        assertIllegalState("set out of order", () -> derived.name("again"));

        final DefaultsFW.Builder defaults = new DefaultsFW.Builder().wrap(buffer, 0, SIZE).required(1).method(Method.GET);
        assertIllegalState("set out of order", () -> defaults.color(Color.RED));
    }

    @Test
    void shouldRejectSecondUnionCase()
    {
        final ShapeFW.Builder shape = new ShapeFW.Builder().wrap(buffer, 0, SIZE).code(1);
        assertIllegalState("set out of order", () -> shape.label("x"));
        assertIllegalState("set out of order", () -> shape.code(2));
        assertEquals(5, shape.build().sizeof());

        final ConditionFW.Builder condition = new ConditionFW.Builder().wrap(buffer, 0, SIZE).typeId(1).key("k");
        assertIllegalState("set out of order", () -> condition.id(2L));
        assertIllegalState("set out of order", () -> condition.bytes(bytes(1)));
    }

    @Test
    void shouldRejectArrayItemsAfterLaterField()
    {
        final ArraysFW.Builder arrays = new ArraysFW.Builder().wrap(buffer, 0, SIZE).colorsItem(c -> c.set(Color.RED));
        assertIllegalState("set out of order", () -> arrays.pointsItem(p -> p.x(1).y(1)));
        assertIllegalState("set out of order", () -> arrays.namesItem(n -> n.set("n")));
        arrays.colorsItem(c -> c.set(Color.BLUE)).trailer(1);
        assertIllegalState("set out of order", () -> arrays.colorsItem(c -> c.set(Color.GREEN)));
        assertEquals(2, arrays.build().colors().count());
    }

    @Test
    void shouldRejectMissingRequiredFieldAtBuild()
    {
        assertIllegalState("i16 is required", () -> new IntegersFW.Builder().wrap(buffer, 0, SIZE).i8(1).build());
        assertIllegalState("x is required", () -> new PointFW.Builder().wrap(buffer, 0, SIZE).build());
        assertIllegalState("y is required", () -> new PointFW.Builder().wrap(buffer, 0, SIZE).x(1).build());
        assertIllegalState("name is required", () -> new DerivedFW.Builder().wrap(buffer, 0, SIZE).typeId(1).build());
        assertIllegalState("sized is required", () -> new BlobsFW.Builder().wrap(buffer, 0, SIZE)
            .fixed(bytes(1, 2, 3, 4)).build());
        assertIllegalState("required is required", () -> new DefaultsFW.Builder().wrap(buffer, 0, SIZE).build());
        assertIllegalState("value is required", () -> new EntryFW.Builder().wrap(buffer, 0, SIZE).key("k").build());
        assertIllegalState("one of circle, label, code, offset64, color is required",
            () -> new ShapeFW.Builder().wrap(buffer, 0, SIZE).build());
        assertIllegalState("one of key, numbers, bytes is required",
            () -> new ConditionFW.Builder().wrap(buffer, 0, SIZE).typeId(1).build());
        assertIllegalState("value is required", () -> new ColorFW.Builder().wrap(buffer, 0, SIZE).build());
        assertIllegalState("value is required", () -> new MethodFW.Builder().wrap(buffer, 0, SIZE).build());
        assertIllegalState("bytesU8 is required", () -> new SizeFieldsFW.Builder().wrap(buffer, 0, SIZE).build());
        assertIllegalState("coord is required", () -> new TypedefsFW.Builder().wrap(buffer, 0, SIZE).build());
        assertIllegalState("local is required", () -> new NativeDerivedFW.Builder().wrap(buffer, 0, SIZE)
            .typeId(1).build());
        assertIllegalState("s16 is required", () -> new NativeFW.Builder().wrap(buffer, 0, SIZE)
            .i16(1).i32(1).i64(1L).u16(1).u32(1L).build());
    }

    @Test
    void shouldRejectMissingRequiredFieldAtNextSetter()
    {
        assertIllegalState("i8 is required", () -> new IntegersFW.Builder().wrap(buffer, 0, SIZE).i32(1));
        assertIllegalState("fixed is required", () -> new BlobsFW.Builder().wrap(buffer, 0, SIZE).between(1));
        assertIllegalState("typeId is required", () -> new DerivedFW.Builder().wrap(buffer, 0, SIZE).name("n"));
        assertIllegalState("typeId is required", () -> new ConditionFW.Builder().wrap(buffer, 0, SIZE).key("k"));
        assertIllegalState("center is required", () -> new CircleFW.Builder().wrap(buffer, 0, SIZE).radius(1));
        assertIllegalState("s8 is required", () -> new StringsFW.Builder().wrap(buffer, 0, SIZE).greeting("g"));
    }

    @Test
    void shouldRejectRequiredFieldMissingInsideNestedBuilder()
    {
        assertIllegalState("y is required", () -> new CircleFW.Builder().wrap(buffer, 0, SIZE).center(p -> p.x(1)));
        assertIllegalState("key is required", () -> new ArraysFW.Builder().wrap(buffer, 0, SIZE)
            .entriesItem(e -> e.value(v -> v.code(1))));
    }

    @Test
    void shouldRejectBuildBeforeWrap()
    {
        assertIllegalState("build() before wrap()", () -> new PointFW.Builder().build());
    }

    @Test
    void shouldRejectIntegersOutOfRange()
    {
        final IntegersFW.Builder integers = new IntegersFW.Builder().wrap(buffer, 0, SIZE);
        assertOutOfRange(() -> integers.i8(128));
        assertOutOfRange(() -> integers.i8(-129));
        integers.i8(-128);
        assertOutOfRange(() -> integers.i16(32768));
        assertOutOfRange(() -> integers.i16(-32769));
        integers.i16(32767).i32(0).i64(0L);
        assertOutOfRange(() -> integers.u8(256));
        assertOutOfRange(() -> integers.u8(-1));
        integers.u8(255);
        assertOutOfRange(() -> integers.u16(65536));
        assertOutOfRange(() -> integers.u16(-1));
        integers.u16(0);
        assertOutOfRange(() -> integers.u32(-1L));
        assertOutOfRange(() -> integers.u32(0x1_0000_0000L));
        assertOutOfRange(() -> integers.u32(Long.MIN_VALUE));
        integers.u32(0xffff_ffffL);
        final IntegersFW built = integers.build();
        assertEquals(-128, built.i8());
        assertEquals(32767, built.i16());
        assertEquals(255, built.u8());
        assertEquals(0xffff_ffffL, built.u32());

        final VarintsFW.Builder varints = new VarintsFW.Builder().wrap(buffer, 0, SIZE).v32(0).v64(0L);
        assertOutOfRange(() -> varints.vu32(-1L));
        assertOutOfRange(() -> varints.vu32(0x1_0000_0000L));
        assertEquals(2, varints.limit());
        assertOutOfRange(() -> new Varuint32FW.Builder().wrap(buffer, 0, SIZE).set(-1L));
        assertOutOfRange(() -> new Varuint32FW.Builder().wrap(buffer, 0, SIZE).set(1L << 32));

        assertOutOfRange(() -> new CircleFW.Builder().wrap(buffer, 0, SIZE).center(p -> p.x(0).y(0)).radius(65536));
        assertOutOfRange(() -> new ArraysFW.Builder().wrap(buffer, 0, SIZE).trailer(128));
        assertOutOfRange(() -> new MixedFW.Builder().wrap(buffer, 0, SIZE).small(200));
        assertOutOfRange(() -> new MixedFW.Builder().wrap(buffer, 0, SIZE).unsignedVar(-1L));
        assertOutOfRange(() -> new LeveledFW.Builder().wrap(buffer, 0, SIZE).low(-1));
        assertOutOfRange(() -> new NativeFW.Builder().wrap(buffer, 0, SIZE).i16(-32769));
        assertOutOfRange(() -> new NativeFW.Builder().wrap(buffer, 0, SIZE).i16(0).i32(0).i64(0L).u16(-1));
    }

    @Test
    void shouldNotWriteValueOutOfRange()
    {
        final IntegersFW.Builder integers = new IntegersFW.Builder().wrap(buffer, 0, SIZE).i8(1);

        assertOutOfRange(() -> integers.i16(40000));

        assertEquals(1, integers.limit());
        final IntegersFW built = integers.i16(2).i32(3).i64(4L).u8(5).u16(6).u32(7L).build();
        assertEquals(2, built.i16());
        assertEquals(IntegersFW.SIZEOF, built.sizeof());
    }

    @Test
    void shouldRejectFixedOctetsOfWrongSize()
    {
        final BlobsFW.Builder blobs = new BlobsFW.Builder().wrap(buffer, 0, SIZE);
        assertOutOfRange(() -> blobs.fixed(bytes(1, 2, 3)));
        assertOutOfRange(() -> blobs.fixed(bytes(1, 2, 3, 4, 5)));
        assertOutOfRange(() -> blobs.fixed(new byte[0]));
        assertEquals(0, blobs.limit());
        blobs.fixed(bytes(1, 2, 3, 4));
        assertEquals(4, blobs.limit());

        assertOutOfRange(() -> new TypedefsFW.Builder().wrap(buffer, 0, SIZE).coord(c -> c.x(0).y(0)).pair(bytes(1)));
        assertOutOfRange(() -> new MixedFW.Builder().wrap(buffer, 0, SIZE).quad(bytes(1, 2, 3)));
    }

    @Test
    void shouldRejectOctetsLongerThanTheirSizeField()
    {
        assertOutOfRange(() -> new SizeFieldsFW.Builder().wrap(buffer, 0, SIZE).bytes8(new byte[128]));
        assertOutOfRange(() -> new SizeFieldsFW.Builder().wrap(buffer, 0, SIZE).bytesU8(new byte[256]));
        assertOutOfRange(() -> new NativeDerivedFW.Builder().wrap(buffer, 0, SIZE).typeId(0).local(0)
            .data(new UnsafeBuffer(new byte[32768]), 0, 32768));
        final UnsafeBuffer large = new UnsafeBuffer(new byte[65536]);
        assertOutOfRange(() -> new BlobsFW.Builder().wrap(large, 0, large.capacity()).fixed(bytes(1, 2, 3, 4))
            .sized(large, 0, 65536));
    }

    @Test
    void shouldRejectStringsLongerThanTheirPrefix()
    {
        final String ascii = "x".repeat(128);
        final String multiByte = "é".repeat(64);
        assertOutOfRange(() -> new String8FW.Builder().wrap(buffer, 0, SIZE).set(ascii));
        assertOutOfRange(() -> new String8FW.Builder().wrap(buffer, 0, SIZE).set(multiByte));
        assertOutOfRange(() -> new StringsFW.Builder().wrap(buffer, 0, SIZE).s8(ascii));
        assertOutOfRange(() -> new StringsFW.Builder().wrap(buffer, 0, SIZE).s8("").s16("").vs("").typed("")
            .greeting(multiByte));
        assertOutOfRange(() -> new DerivedFW.Builder().wrap(buffer, 0, SIZE).typeId(1)
            .name(new UnsafeBuffer(new byte[200]), 0, 200));
        final UnsafeBuffer large = new UnsafeBuffer(new byte[40000]);
        assertOutOfRange(() -> new String16FW.Builder().wrap(large, 0, large.capacity()).set(large, 0, 32768));
        assertOutOfRange(() -> new String8FW.Builder().wrap(buffer, 0, SIZE).set(buffer, 0, -2));
    }

    @Test
    void shouldRejectWritingPastMaxLimit()
    {
        assertThrows(IndexOutOfBoundsException.class, () -> new PointFW.Builder().wrap(buffer, 0, 7).x(1).y(2));
        assertThrows(IndexOutOfBoundsException.class, () -> new IntegersFW.Builder().wrap(buffer, 10, 31)
            .i8(0).i16(0).i32(0).i64(0L).u8(0).u16(0).u32(0L));
        assertThrows(IndexOutOfBoundsException.class, () -> new StringsFW.Builder().wrap(buffer, 0, 4).s8("four"));
        assertThrows(IndexOutOfBoundsException.class, () -> new DefaultsFW.Builder().wrap(buffer, 0, 20).required(1).build());
        assertThrows(IndexOutOfBoundsException.class, () -> new ArraysFW.Builder().wrap(buffer, 0, 8)
            .pointsItem(p -> p.x(1).y(2)));
        assertThrows(IndexOutOfBoundsException.class, () -> new BlobsFW.Builder().wrap(buffer, 0, 12)
            .fixed(bytes(1, 2, 3, 4)).sized(bytes(1, 2, 3)));
    }

    @Test
    void shouldRejectVarArrayCountGrowingPastMaxLimit()
    {
        final int maxLimit = 1 + 64;
        final VarArrayFW.Builder<ColorFW.Builder, ColorFW> colors =
            new VarArrayFW.Builder<>(new ColorFW.Builder(), new ColorFW()).wrap(buffer, 0, maxLimit);
        for (int i = 0; i < 63; i++)
        {
            colors.item(c -> c.set(Color.RED));
        }

        assertThrows(IndexOutOfBoundsException.class, () -> colors.item(c -> c.set(Color.BLUE)));

        assertEquals(63, colors.count());
        assertEquals(64, colors.limit());
        assertEquals(63, colors.build().count());
    }

    @Test
    void shouldRejectTooManyArrayItems()
    {
        final UnsafeBuffer large = new UnsafeBuffer(new byte[2048]);
        final Array8FW.Builder<ColorFW.Builder, ColorFW> colors =
            new Array8FW.Builder<>(new ColorFW.Builder(), new ColorFW()).wrap(large, 0, large.capacity());
        for (int i = 0; i < 127; i++)
        {
            colors.item(c -> c.set(Color.GREEN));
        }
        assertIllegalState("at most 127 items", () -> colors.item(c -> c.set(Color.GREEN)));
        assertEquals(127, colors.build().count());

        final ArraysFW.Builder arrays = new ArraysFW.Builder().wrap(large, 0, large.capacity());
        for (int i = 0; i < 127; i++)
        {
            arrays.pointsItem(p -> p.x(0).y(0));
        }
        assertIllegalState("at most 127 items", () -> arrays.pointsItem(p -> p.x(0).y(0)));
    }

    @Test
    void shouldRejectBuilderRegionOutsideBuffer()
    {
        final PointFW.Builder point = new PointFW.Builder();
        assertThrows(IndexOutOfBoundsException.class, () -> point.wrap(buffer, -1, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> point.wrap(buffer, 9, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> point.wrap(buffer, 0, SIZE + 1));
        assertThrows(IndexOutOfBoundsException.class,
            () -> new Array16FW.Builder<>(new PointFW.Builder(), new PointFW(), ByteOrder.BIG_ENDIAN).wrap(buffer, 0, 1));
        assertEquals(8, point.wrap(buffer, 248, 256).x(1).y(2).build().sizeof());
    }

    private static void assertIllegalState(String message, Executable executable)
    {
        final IllegalStateException ex = assertThrows(IllegalStateException.class, executable);
        assertTrue(ex.getMessage().contains(message), () -> "'" + ex.getMessage() + "' mentions '" + message + "'");
    }

    private static void assertOutOfRange(Executable executable)
    {
        assertThrows(IllegalArgumentException.class, executable);
    }
}
