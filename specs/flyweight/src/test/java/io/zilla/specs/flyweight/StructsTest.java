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
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.test.types.BaseFW;
import io.zilla.specs.test.types.Color;
import io.zilla.specs.test.types.ConditionFW;
import io.zilla.specs.test.types.DerivedFW;
import io.zilla.specs.test.types.GrandFW;
import io.zilla.specs.test.types.Method;
import io.zilla.specs.test.types.NestedFW;
import io.zilla.specs.test.types.PointFW;
import io.zilla.specs.test.types.TypedefsFW;
import io.zilla.specs.test.types.Unsigned;
import io.zilla.specs.test.types.Wide;
import org.junit.jupiter.api.Test;

class StructsTest
{
    @Test
    void shouldGenerateTypeIds()
    {
        assertEquals(0x01, BaseFW.TYPE_ID);
        assertEquals(0xc0000002, DerivedFW.TYPE_ID);
        assertTrue(DerivedFW.TYPE_ID < 0);
        assertEquals(0x10, ConditionFW.TYPE_ID);
        assertEquals(12, BaseFW.SIZEOF);
        assertEquals(8, PointFW.SIZEOF);
    }

    @Test
    void shouldPutSupertypeFieldsFirst()
    {
        final byte[] encoded = encode(new DerivedFW.Builder(), b -> b
            .typeId(DerivedFW.TYPE_ID)
            .id(0x0102030405060708L)
            .name("n")
            .marker(Unsigned.ZERO)
            .wide(Wide.LOWEST));

        assertArrayEquals(bytes(
            0xc0, 0x00, 0x00, 0x02,
            0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08,
            0x01, 'n',
            0x00, 0x00, 0x00, 0x00,
            0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00), encoded);

        final DerivedFW derived = new DerivedFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(DerivedFW.TYPE_ID, derived.typeId());
        assertEquals(0x0102030405060708L, derived.id());
        assertEquals("n", derived.name().asString());
        assertSame(Unsigned.ZERO, derived.marker());
        assertSame(Wide.LOWEST, derived.wide());

        final BaseFW base = new BaseFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(DerivedFW.TYPE_ID, base.typeId());
        assertEquals(0x0102030405060708L, base.id());
        assertEquals(BaseFW.SIZEOF, base.sizeof());
    }

    @Test
    void shouldFillInheritedAndOwnDefaults()
    {
        final byte[] encoded = encode(new DerivedFW.Builder(), b -> b.typeId(DerivedFW.TYPE_ID).name((String) null));

        final DerivedFW derived = new DerivedFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(0L, derived.id());
        assertTrue(derived.name().isNull());
        assertSame(Unsigned.TOP, derived.marker());
        assertSame(Wide.HIGHEST, derived.wide());
        assertEquals(4 + 8 + 1 + 4 + 8, derived.sizeof());
        assertEquals("DerivedFW[typeId=-1073741822, id=0, name=null, marker=TOP, wide=HIGHEST]", derived.toString());
    }

    @Test
    void shouldRoundTripTypedefsAsTheirTypes()
    {
        final byte[] encoded = encode(new TypedefsFW.Builder(), b -> b
            .coord(c -> c.x(1).y(2))
            .hue(Color.RED)
            .pair(bytes(0xab, 0xcd))
            .pointsItem(p -> p.x(3).y(4))
            .pointsItem(p -> p.x(5).y(6))
            .verb(Method.GET)
            .text("text")
            .at(Long.MIN_VALUE));

        final TypedefsFW typedefs = new TypedefsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(1, typedefs.coord().x());
        assertEquals(2, typedefs.coord().y());
        assertSame(Color.RED, typedefs.hue());
        assertArrayEquals(bytes(0xab, 0xcd), Buffers.copy(typedefs.pair()));
        assertEquals(2, typedefs.points().count());
        final List<String> points = new ArrayList<>();
        typedefs.points().forEach(p -> points.add(p.x() + "," + p.y()));
        assertEquals(List.of("3,4", "5,6"), points);
        assertSame(Method.GET, typedefs.verb());
        assertEquals("text", typedefs.text().asString());
        assertEquals(Long.MIN_VALUE, typedefs.at());
        assertEquals(8 + 1 + 2 + (2 + 16) + 4 + 5 + 8, typedefs.sizeof());
    }

    @Test
    void shouldFillTypedefDefaults()
    {
        final byte[] encoded = encode(new TypedefsFW.Builder(), b -> b.coord(c -> c.x(0).y(0)).pair(bytes(0, 0)));

        final TypedefsFW typedefs = new TypedefsFW().wrap(exact(encoded), 0, encoded.length);
        assertSame(Color.BLUE, typedefs.hue());
        assertEquals(0, typedefs.points().count());
        assertSame(Method.CUSTOM, typedefs.verb());
        assertEquals("t\\x\n", typedefs.text().asString());
        assertEquals(Long.MAX_VALUE, typedefs.at());
    }

    @Test
    void shouldRoundTripNestedStructsArraysAndUnions()
    {
        final byte[] encoded = encode(new NestedFW.Builder(), b -> b
            .derived(d -> d.typeId(DerivedFW.TYPE_ID).id(9L).name("derived"))
            .arrays(a -> a
                .pointsItem(p -> p.x(1).y(1))
                .entriesItem(e -> e.key("k").value(v -> v.code(77)))
                .colorsItem(c -> c.set(Color.BLUE))
                .trailer(3))
            .condition(c -> c.typeId(ConditionFW.TYPE_ID).id(10L).key("condition")));

        final NestedFW nested = new NestedFW().wrap(exact(encoded), 0, encoded.length);
        final DerivedFW derived = nested.derived();
        assertEquals(0, derived.offset());
        assertEquals(9L, derived.id());
        assertEquals("derived", derived.name().asString());
        assertSame(Wide.HIGHEST, derived.wide());
        assertEquals(derived.limit(), nested.arrays().offset());
        assertEquals(1, nested.arrays().points().count());
        assertTrue(nested.arrays().names().isNull());
        assertEquals(77, nested.arrays().entries().matchFirst(e -> true).value().code());
        assertEquals(3, nested.arrays().trailer());
        assertEquals(nested.arrays().limit(), nested.condition().offset());
        assertEquals(ConditionFW.TYPE_ID, nested.condition().typeId());
        assertEquals(10L, nested.condition().id());
        assertSame(Color.RED, nested.condition().kind());
        assertEquals("condition", nested.condition().key().asString());
        assertEquals(encoded.length, nested.condition().limit());
        assertEquals(encoded.length, nested.limit());
    }

    @Test
    void shouldCopyNestedValuesFromFlyweights()
    {
        final byte[] source = encode(new NestedFW.Builder(), b -> b
            .derived(d -> d.typeId(1).name("copy"))
            .arrays(a -> a.colorsItem(c -> c.set(Color.GREEN)))
            .condition(c -> c.typeId(2).bytes(bytes(1, 2, 3))));
        final NestedFW from = new NestedFW().wrap(exact(source), 0, source.length);

        final byte[] encoded = encode(new NestedFW.Builder(), b -> b
            .derived(from.derived())
            .arrays(from.arrays())
            .condition(from.condition()));

        assertArrayEquals(source, encoded);
    }

    @Test
    void shouldInheritThroughTwoLevels()
    {
        final byte[] encoded = encode(new GrandFW.Builder(), b -> b
            .typeId(GrandFW.TYPE_ID)
            .name("grand")
            .wide(Wide.LOWEST)
            .coordsItem(c -> c.x(1).y(2))
            .coordsItem(c -> c.x(3).y(4)));

        final GrandFW grand = new GrandFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(3, GrandFW.TYPE_ID);
        assertEquals(GrandFW.TYPE_ID, grand.typeId());
        assertEquals(0L, grand.id());
        assertEquals("grand", grand.name().asString());
        assertSame(Unsigned.TOP, grand.marker());
        assertSame(Wide.LOWEST, grand.wide());
        assertEquals(5, grand.extra());
        assertEquals(2, grand.coords().count());
        assertEquals(4, grand.coords().matchFirst(c -> c.x() == 3).y());

        final DerivedFW derived = new DerivedFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals("grand", derived.name().asString());
        assertSame(Wide.LOWEST, derived.wide());
        assertEquals(grand.sizeof() - 1 - 1 - 2 * PointFW.SIZEOF, derived.sizeof());
    }
}
