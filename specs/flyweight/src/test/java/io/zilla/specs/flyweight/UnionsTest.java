/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static io.zilla.specs.flyweight.Buffers.encode;
import static io.zilla.specs.flyweight.Buffers.exact;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;

import io.zilla.specs.test.types.Code;
import io.zilla.specs.test.types.CodedFW;
import io.zilla.specs.test.types.Color;
import io.zilla.specs.test.types.ConditionFW;
import io.zilla.specs.test.types.DerivedFW;
import io.zilla.specs.test.types.LeveledFW;
import io.zilla.specs.test.types.Method;
import io.zilla.specs.test.types.MixedFW;
import io.zilla.specs.test.types.Port;
import io.zilla.specs.test.types.PortedFW;
import io.zilla.specs.test.types.ShapeFW;
import io.zilla.specs.test.types.TaggedFW;
import io.zilla.specs.test.types.TintedFW;
import io.zilla.specs.test.types.Tiny;
import io.zilla.specs.test.types.Token;
import io.zilla.specs.test.types.Unsigned;
import io.zilla.specs.test.types.VariantFW;
import io.zilla.specs.test.types.Wide;
import io.zilla.specs.test.types.WiderFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class UnionsTest
{
    @Test
    void shouldRoundTripStructCase()
    {
        final byte[] encoded = encode(new ShapeFW.Builder(), b -> b.circle(c -> c.center(p -> p.x(-1).y(2)).radius(300)));

        assertArrayEquals(bytes(0x01, 0xff, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x02, 0x01, 0x2c), encoded);
        final ShapeFW shape = new ShapeFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(ShapeFW.KIND_CIRCLE, shape.kind());
        assertEquals(1, shape.rawKind());
        assertEquals(-1, shape.circle().center().x());
        assertEquals(2, shape.circle().center().y());
        assertEquals(300, shape.circle().radius());
        assertEquals(1, shape.circle().offset());
        assertEquals(encoded.length, shape.circle().limit());
        assertThrows(IllegalStateException.class, shape::label);
        assertThrows(IllegalStateException.class, shape::code);
        assertThrows(IllegalStateException.class, shape::offset64);
        assertThrows(IllegalStateException.class, shape::color);
        assertEquals("ShapeFW[kind=1, circle=CircleFW[center=PointFW[x=-1, y=2], radius=300]]", shape.toString());
    }

    @Test
    void shouldRoundTripStringCase()
    {
        final byte[] encoded = encode(new ShapeFW.Builder(), b -> b.label("label"));

        final ShapeFW shape = new ShapeFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(ShapeFW.KIND_LABEL, shape.kind());
        assertEquals("label", shape.label().asString());
        assertEquals(1 + 2 + 5, shape.sizeof());
        assertThrows(IllegalStateException.class, shape::circle);
        assertThrows(IllegalStateException.class, shape::code);
    }

    @Test
    void shouldRoundTripIntegerVarintAndEnumCases()
    {
        final byte[] code = encode(new ShapeFW.Builder(), b -> b.code(Integer.MIN_VALUE));
        assertArrayEquals(bytes(0x03, 0x80, 0x00, 0x00, 0x00), code);
        final ShapeFW codeShape = new ShapeFW().wrap(exact(code), 0, code.length);
        assertEquals(Integer.MIN_VALUE, codeShape.code());
        assertThrows(IllegalStateException.class, codeShape::offset64);

        final byte[] offset = encode(new ShapeFW.Builder(), b -> b.offset64(Long.MIN_VALUE));
        assertEquals(1 + 10, offset.length);
        final ShapeFW offsetShape = new ShapeFW().wrap(exact(offset), 0, offset.length);
        assertEquals(ShapeFW.KIND_OFFSET64, offsetShape.kind());
        assertEquals(Long.MIN_VALUE, offsetShape.offset64());
        assertThrows(IllegalStateException.class, offsetShape::code);

        final byte[] color = encode(new ShapeFW.Builder(), b -> b.color(Color.BLUE));
        assertArrayEquals(bytes(0xff, 0x06), color);
        final ShapeFW colorShape = new ShapeFW().wrap(exact(color), 0, color.length);
        assertEquals(255, colorShape.kind());
        assertSame(Color.BLUE, colorShape.color());
        assertThrows(IllegalStateException.class, colorShape::label);
        assertEquals("ShapeFW[kind=255, color=BLUE]", colorShape.toString());
    }

    @Test
    void shouldSwitchOnEnumAfterSupertypeFields()
    {
        final byte[] key = encode(new ConditionFW.Builder(), b -> b.typeId(ConditionFW.TYPE_ID).id(-2L).key("k"));
        assertArrayEquals(bytes(
            0x00, 0x00, 0x00, 0x10,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,
            0x00,
            0x00, 0x01, 'k'), key);
        final ConditionFW keyCondition = new ConditionFW().wrap(exact(key), 0, key.length);
        assertEquals(ConditionFW.TYPE_ID, keyCondition.typeId());
        assertEquals(-2L, keyCondition.id());
        assertSame(Color.RED, keyCondition.kind());
        assertEquals(ConditionFW.KIND_KEY, keyCondition.rawKind());
        assertEquals("k", keyCondition.key().asString());
        assertThrows(IllegalStateException.class, keyCondition::numbers);
        assertThrows(IllegalStateException.class, keyCondition::bytes);

        final byte[] numbers = encode(new ConditionFW.Builder(), b -> b
            .typeId(ConditionFW.TYPE_ID)
            .numbers(n -> n.i8(1).i16(2).i32(3).i64(4L).u8(5).u16(6).u32(7L)));
        final ConditionFW numbersCondition = new ConditionFW().wrap(exact(numbers), 0, numbers.length);
        assertEquals(0L, numbersCondition.id());
        assertSame(Color.GREEN, numbersCondition.kind());
        assertEquals(5, numbersCondition.rawKind());
        assertEquals(7L, numbersCondition.numbers().u32());
        assertEquals(4L, numbersCondition.numbers().i64());
        assertEquals(13 + 22, numbersCondition.sizeof());
        assertThrows(IllegalStateException.class, numbersCondition::key);

        final byte[] octets = encode(new ConditionFW.Builder(), b -> b.typeId(ConditionFW.TYPE_ID).bytes(bytes(9, 8, 7)));
        final ConditionFW bytesCondition = new ConditionFW().wrap(exact(octets), 0, octets.length);
        assertSame(Color.BLUE, bytesCondition.kind());
        assertArrayEquals(bytes(9, 8, 7), Buffers.copy(bytesCondition.bytes()));
        assertThrows(IllegalStateException.class, bytesCondition::key);
        assertTrue(bytesCondition.toString().endsWith("kind=BLUE, bytes=octets[3]]"));
    }

    @Test
    void shouldCopyUnionCaseFromFlyweight()
    {
        final byte[] numbers = encode(new ConditionFW.Builder(), b -> b
            .typeId(1)
            .numbers(n -> n.i8(-1).i16(-2).i32(-3).i64(-4L).u8(1).u16(2).u32(3L)));
        final ConditionFW source = new ConditionFW().wrap(exact(numbers), 0, numbers.length);

        final byte[] copy = encode(new ConditionFW.Builder(), b -> b.typeId(1).numbers(source.numbers()));

        assertArrayEquals(numbers, copy);
    }

    @Test
    void shouldRoundTripEveryCaseOfInt16Union()
    {
        final MixedFW mixed = new MixedFW();

        final byte[] small = encode(new MixedFW.Builder(), b -> b.small(-128));
        assertArrayEquals(bytes(0xff, 0xff, 0x80), small);
        assertEquals(-128, mixed.wrap(exact(small), 0, small.length).small());
        assertEquals(MixedFW.KIND_SMALL, mixed.kind());
        assertThrows(IllegalStateException.class, mixed::method);

        final byte[] method = encode(new MixedFW.Builder(), b -> b.method(Method.CUSTOM));
        assertArrayEquals(bytes(0x01, 0x2c, 0x08, 'x', '-', 'c', 'u', 's', 't', 'o', 'm'), method);
        assertSame(Method.CUSTOM, mixed.wrap(exact(method), 0, method.length).method());
        assertEquals(300, mixed.rawKind());

        final byte[] quad = encode(new MixedFW.Builder(), b -> b.quad(bytes(1, 2, 3, 4)));
        assertArrayEquals(bytes(1, 2, 3, 4), Buffers.copy(mixed.wrap(exact(quad), 0, quad.length).quad()));
        assertEquals(6, mixed.sizeof());

        final byte[] unsignedVar = encode(new MixedFW.Builder(), b -> b.unsignedVar(0xffff_ffffL));
        assertEquals(0xffff_ffffL, mixed.wrap(exact(unsignedVar), 0, unsignedVar.length).unsignedVar());
        assertEquals(2 + 5, mixed.sizeof());

        final byte[] coord = encode(new MixedFW.Builder(), b -> b.coord(p -> p.x(4).y(5)));
        assertEquals(5, mixed.wrap(exact(coord), 0, coord.length).coord().y());

        final byte[] wide = encode(new MixedFW.Builder(), b -> b.wide(Wide.HIGHEST));
        assertArrayEquals(bytes(0x80, 0x00), Arrays.copyOf(wide, 2));
        assertSame(Wide.HIGHEST, mixed.wrap(exact(wide), 0, wide.length).wide());
        assertEquals(-32768, mixed.kind());
        assertThrows(IllegalStateException.class, mixed::text);

        final byte[] text = encode(new MixedFW.Builder(), b -> b.text("t"));
        assertEquals("t", mixed.wrap(exact(text), 0, text.length).text().asString());
        assertEquals(32767, mixed.rawKind());
        assertThrows(IllegalStateException.class, mixed::wide);
        assertEquals("MixedFW[kind=32767, text=\"t\"]", mixed.toString());
    }

    @Test
    void shouldRoundTripSignedInt8AndInt32Discriminators()
    {
        final byte[] low = encode(new TaggedFW.Builder(), b -> b.low(Long.MAX_VALUE));
        assertEquals((byte) 0x80, low[0]);
        final TaggedFW tagged = new TaggedFW().wrap(exact(low), 0, low.length);
        assertEquals(-128, tagged.kind());
        assertEquals(Long.MAX_VALUE, tagged.low());
        assertThrows(IllegalStateException.class, tagged::token);

        final byte[] token = encode(new TaggedFW.Builder(), b -> b.token(Token.ALPHA));
        assertSame(Token.ALPHA, tagged.wrap(exact(token), 0, token.length).token());
        assertEquals(127, tagged.rawKind());

        final byte[] unsigned = encode(new WiderFW.Builder(), b -> b.unsigned32(0xffff_ffffL));
        assertArrayEquals(bytes(0x80, 0, 0, 0, 0xff, 0xff, 0xff, 0xff), unsigned);
        final WiderFW wider = new WiderFW().wrap(exact(unsigned), 0, unsigned.length);
        assertEquals(Integer.MIN_VALUE, wider.kind());
        assertEquals(0xffff_ffffL, wider.unsigned32());
        assertThrows(IllegalStateException.class, wider::name);

        final byte[] name = encode(new WiderFW.Builder(), b -> b.name((String) null));
        assertArrayEquals(bytes(0x7f, 0xff, 0xff, 0xff, 0xff), name);
        assertTrue(wider.wrap(exact(name), 0, name.length).name().isNull());
        assertEquals(Integer.MAX_VALUE, wider.rawKind());
    }

    @Test
    void shouldRoundTripUnionWithTrailingOctetsCase()
    {
        final byte[] plain = encode(new PortedFW.Builder(), b -> b.plain(-2));
        assertArrayEquals(bytes(0x00, 0x50, 0xff, 0xfe), plain);
        final PortedFW ported = new PortedFW().wrap(exact(plain), 0, plain.length);
        assertSame(Port.HTTP, ported.kind());
        assertEquals(-2, ported.plain());
        assertThrows(IllegalStateException.class, ported::rest);

        final byte[] rest = encode(new PortedFW.Builder(), b -> b.rest(bytes(1, 2, 3)));
        assertArrayEquals(bytes(0xff, 0xff, 1, 2, 3), rest);
        ported.wrap(exact(rest), 0, rest.length);
        assertSame(Port.LAST_PORT, ported.kind());
        assertEquals(65535, ported.rawKind());
        assertEquals(3, ported.rest().sizeof());

        final UnsafeBuffer longer = new UnsafeBuffer(bytes(0xff, 0xff, 1, 2, 3, 4, 5));
        assertEquals(5, ported.wrap(longer, 0, longer.capacity()).rest().sizeof());
    }

    @Test
    void shouldRoundTripEmptyStructCase()
    {
        final byte[] nothing = encode(new LeveledFW.Builder(), b -> b.nothing(e ->
        {
        }));
        assertArrayEquals(bytes(0x7f, 0xff), nothing);
        final LeveledFW leveled = new LeveledFW().wrap(exact(nothing), 0, nothing.length);
        assertEquals(0, leveled.nothing().sizeof());
        assertEquals(2, leveled.nothing().offset());
        assertThrows(IllegalStateException.class, leveled::low);

        final byte[] low = encode(new LeveledFW.Builder(), b -> b.low(65535));
        assertArrayEquals(bytes(0x80, 0x00, 0xff, 0xff), low);
        assertEquals(65535, leveled.wrap(exact(low), 0, low.length).low());
        assertThrows(IllegalStateException.class, leveled::nothing);
    }

    @Test
    void shouldSwitchOnSignedEnumDiscriminators()
    {
        final byte[] minus = encode(new TintedFW.Builder(), b -> b.minus(-2));
        assertArrayEquals(bytes(0x80, 0xfe), minus);
        final TintedFW tinted = new TintedFW().wrap(exact(minus), 0, minus.length);
        assertSame(Tiny.NEGATIVE, tinted.kind());
        assertEquals(-128, tinted.rawKind());
        assertEquals(-2, tinted.minus());
        assertThrows(IllegalStateException.class, tinted::color);

        final byte[] color = encode(new TintedFW.Builder(), b -> b.color(Color.GREEN));
        assertArrayEquals(bytes(0x7f, 0x05), color);
        tinted.wrap(exact(color), 0, color.length);
        assertSame(Tiny.POSITIVE, tinted.kind());
        assertSame(Color.GREEN, tinted.color());
        assertThrows(IllegalStateException.class, tinted::minus);
    }

    @Test
    void shouldNestUnionsAsCases()
    {
        final byte[] shape = encode(new CodedFW.Builder(), b -> b.shape(s -> s.code(5)));
        assertArrayEquals(bytes(0x80, 0, 0, 0, 0x03, 0, 0, 0, 5), shape);
        final CodedFW coded = new CodedFW().wrap(exact(shape), 0, shape.length);
        assertSame(Code.MIN_CODE, coded.kind());
        assertEquals(CodedFW.KIND_SHAPE, coded.rawKind());
        assertEquals(5, coded.shape().code());
        assertEquals(4, coded.shape().offset());
        assertThrows(IllegalStateException.class, coded::condition);

        final byte[] condition = encode(new CodedFW.Builder(), b -> b
            .condition(c -> c.typeId(ConditionFW.TYPE_ID).bytes(bytes(7))));
        coded.wrap(exact(condition), 0, condition.length);
        assertSame(Code.MAX_CODE, coded.kind());
        assertEquals(ConditionFW.TYPE_ID, coded.condition().typeId());
        assertSame(Color.BLUE, coded.condition().kind());
        assertArrayEquals(bytes(7), Buffers.copy(coded.condition().bytes()));
        assertEquals(condition.length, coded.condition().limit());
        assertThrows(IllegalStateException.class, coded::shape);

        final byte[] copy = encode(new CodedFW.Builder(), b -> b.condition(coded.condition()));
        assertArrayEquals(condition, copy);
    }

    @Test
    void shouldFindDiscriminatorAfterVariableLengthSupertype()
    {
        final byte[] number = encode(new VariantFW.Builder(), b -> b.typeId(VariantFW.TYPE_ID).name("long name").number(-9));

        final VariantFW variant = new VariantFW().wrap(exact(number), 0, number.length);
        assertEquals(0x30, VariantFW.TYPE_ID);
        assertEquals(VariantFW.TYPE_ID, variant.typeId());
        assertEquals("long name", variant.name().asString());
        assertSame(Unsigned.TOP, variant.marker());
        assertSame(Wide.HIGHEST, variant.wide());
        assertEquals(VariantFW.KIND_NUMBER, variant.kind());
        assertEquals(-9, variant.number());
        assertEquals(4 + 8 + 10 + 4 + 8 + 1 + 4, variant.sizeof());
        assertThrows(IllegalStateException.class, variant::text);
        assertEquals("long name", new DerivedFW().wrap(exact(number), 0, number.length).name().asString());

        final byte[] text = encode(new VariantFW.Builder(), b -> b.typeId(1).name("").text("text"));
        variant.wrap(exact(text), 0, text.length);
        assertEquals(VariantFW.KIND_TEXT, variant.rawKind());
        assertEquals("text", variant.text().asString());
        assertEquals(text.length, variant.text().limit());
        assertThrows(IllegalStateException.class, variant::number);
    }
}
