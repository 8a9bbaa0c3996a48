/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static io.zilla.specs.flyweight.Buffers.encode;
import static io.zilla.specs.flyweight.Buffers.exact;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.test.types.ArraysFW;
import io.zilla.specs.test.types.Color;
import io.zilla.specs.test.types.ColorFW;
import io.zilla.specs.test.types.DerivedFW;
import io.zilla.specs.test.types.EntryFW;
import io.zilla.specs.test.types.HolderFW;
import io.zilla.specs.test.types.Method;
import io.zilla.specs.test.types.MethodFW;
import io.zilla.specs.test.types.MixedFW;
import io.zilla.specs.test.types.PointFW;
import io.zilla.specs.test.types.Port;
import io.zilla.specs.test.types.ShapeFW;
import io.zilla.specs.test.types.Token;
import io.zilla.specs.test.types.Wide;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ArraysTest
{
    private static final Color[] COLORS = Color.values();
    private static final Method[] METHODS = Method.values();

    @Test
    void shouldRoundTripEveryArrayKind()
    {
        final byte[] encoded = encode(new ArraysFW.Builder(), b -> b
            .pointsItem(p -> p.x(1).y(2))
            .pointsItem(p -> p.x(3).y(4))
            .namesItem(n -> n.set("first"))
            .namesItem(n -> n.setNull())
            .namesItem(n -> n.set(""))
            .entriesItem(e -> e.key("circle").value(v -> v.circle(c -> c.center(p -> p.x(5).y(6)).radius(7))))
            .entriesItem(e -> e.key("label").value(v -> v.label("text")))
            .colorsItem(c -> c.set(Color.RED))
            .colorsItem(c -> c.set(Color.GREEN))
            .colorsItem(c -> c.set(Color.BLUE))
            .methodsItem(m -> m.set(Method.GET))
            .methodsItem(m -> m.set(Method.CUSTOM))
            .trailer(5));

        final ArraysFW arrays = new ArraysFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(2, arrays.points().count());
        final List<String> points = new ArrayList<>();
        arrays.points().forEach(p -> points.add(p.x() + ":" + p.y()));
        assertEquals(List.of("1:2", "3:4"), points);

        assertEquals(3, arrays.names().count());
        final List<String> names = new ArrayList<>();
        arrays.names().forEach(n -> names.add(String.valueOf(n.asString())));
        assertEquals(List.of("first", "null", ""), names);

        assertEquals(2, arrays.entries().count());
        final EntryFW label = arrays.entries().matchFirst(e -> "label".equals(e.key().asString()));
        assertEquals(ShapeFW.KIND_LABEL, label.value().kind());
        assertEquals("text", label.value().label().asString());
        final EntryFW circle = arrays.entries().matchFirst(e -> e.value().kind() == ShapeFW.KIND_CIRCLE);
        assertEquals("circle", circle.key().asString());
        assertEquals(7, circle.value().circle().radius());

        final List<Color> colors = new ArrayList<>();
        arrays.colors().forEach(c -> colors.add(c.get()));
        assertEquals(List.of(Color.RED, Color.GREEN, Color.BLUE), colors);
        assertTrue(arrays.colors().anyMatch(c -> c.get() == Color.BLUE));

        final List<Method> methods = new ArrayList<>();
        arrays.methods().forEach(m -> methods.add(m.get()));
        assertEquals(List.of(Method.GET, Method.CUSTOM), methods);
        assertFalse(arrays.methods().anyMatch(m -> m.get() == Method.POST));

        assertEquals(5, arrays.trailer());
        assertEquals("[PointFW[x=1, y=2], PointFW[x=3, y=4]]", arrays.points().toString());
        assertEquals("[\"first\", null, \"\"]", arrays.names().toString());
        assertEquals("[RED, GREEN, BLUE]", arrays.colors().toString());
    }

    @Test
    void shouldFillEmptyAndNullArraysWhenSkipped()
    {
        final byte[] encoded = encode(new ArraysFW.Builder(), b ->
        {
        });

        assertArrayEquals(bytes(
            0x00,
            0xff, 0xff,
            0x00, 0x00, 0x00, 0x00,
            0x00,
            0x01,
            0xff), encoded);

        final ArraysFW arrays = new ArraysFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(0, arrays.points().count());
        assertFalse(arrays.points().isNull());
        assertTrue(arrays.points().isEmpty());
        assertEquals(-1, arrays.names().count());
        assertTrue(arrays.names().isNull());
        assertTrue(arrays.names().isEmpty());
        assertEquals(0, arrays.entries().count());
        assertEquals(0, arrays.colors().count());
        assertTrue(arrays.methods().isNull());
        assertEquals(-1, arrays.trailer());
        assertEquals("[]", arrays.points().toString());
        assertEquals("null", arrays.names().toString());

        final List<Object> visited = new ArrayList<>();
        arrays.points().forEach(visited::add);
        arrays.names().forEach(visited::add);
        arrays.methods().forEach(visited::add);
        assertTrue(visited.isEmpty());
        assertNull(arrays.names().matchFirst(n -> true));
        assertNull(arrays.entries().matchFirst(e -> true));
        assertFalse(arrays.methods().anyMatch(m -> true));
    }

    @Test
    void shouldLayOutCountPrefixes()
    {
        final byte[] encoded = encode(new ArraysFW.Builder(), b -> b
            .pointsItem(p -> p.x(0).y(0))
            .namesItem(n -> n.set("a"))
            .entriesItem(e -> e.key("").value(v -> v.color(Color.RED)))
            .colorsItem(c -> c.set(Color.GREEN))
            .methodsItem(m -> m.set(Method.GET)));

        assertArrayEquals(bytes(
            0x01, 0, 0, 0, 0, 0, 0, 0, 0,
            0x00, 0x01, 0x00, 0x01, 'a',
            0x00, 0x00, 0x00, 0x01, 0x00, 0xff, 0x00,
            0x02, 0x05,
            0x02, 0x03, 'G', 'E', 'T',
            0xff), encoded);
    }

    @ParameterizedTest(name = "{0} colors take a {1}-byte count")
    @CsvSource({
        "0, 1",
        "1, 1",
        "63, 1",
        "64, 2",
        "65, 2",
        "8191, 2",
        "8192, 3",
        "8193, 3"
    })
    void shouldGrowVarArrayCountAndMoveItems(int count, int prefixSize)
    {
        final byte[] encoded = encode(new ArraysFW.Builder(), b ->
        {
            for (int i = 0; i < count; i++)
            {
                final Color color = COLORS[i % COLORS.length];
                b.colorsItem(c -> c.set(color));
            }
            b.trailer(42);
        });

        assertEquals(1 + 2 + 4 + prefixSize + count + 1 + 1, encoded.length);
        final ArraysFW arrays = new ArraysFW().wrap(exact(encoded), 0, encoded.length);
        final VarArrayFW<ColorFW> colors = arrays.colors();
        assertEquals(count, colors.count());
        assertEquals(prefixSize + count, colors.sizeof());
        assertEquals(Varints.zigZag32(count), Varints.readUnsigned(colors.buffer(), colors.offset()));
        final int[] index = {0};
        colors.forEach(c ->
        {
            assertSame(COLORS[index[0] % COLORS.length], c.get(), "item " + index[0]);
            assertEquals(colors.offset() + prefixSize + index[0], c.offset());
            index[0]++;
        });
        assertEquals(count, index[0]);
        assertTrue(arrays.methods().isNull());
        assertEquals(42, arrays.trailer());
    }

    @Test
    void shouldMoveVariableLengthItemsWhenCountGrows()
    {
        final byte[] encoded = encode(new ArraysFW.Builder(), b ->
        {
            for (int i = 0; i < 65; i++)
            {
                final Method method = METHODS[i % METHODS.length];
                b.methodsItem(m -> m.set(method));
            }
        });

        final ArraysFW arrays = new ArraysFW().wrap(exact(encoded), 0, encoded.length);
        final VarArrayFW<MethodFW> methods = arrays.methods();
        assertEquals(65, methods.count());
        final List<Method> read = new ArrayList<>();
        methods.forEach(m -> read.add(m.get()));
        for (int i = 0; i < 65; i++)
        {
            assertSame(METHODS[i % METHODS.length], read.get(i), "item " + i);
        }
        assertEquals(-1, arrays.trailer());
    }

    @Test
    void shouldGrowVarArrayCountInBuilderAtEndOfBuffer()
    {
        final int size = 2 + 64 * PointFW.SIZEOF;
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[size]);
        final VarArrayFW.Builder<PointFW.Builder, PointFW> builder =
            new VarArrayFW.Builder<>(new PointFW.Builder(), new PointFW()).wrap(buffer, 0, size);
        for (int i = 0; i < 64; i++)
        {
            final int value = i;
            builder.item(p -> p.x(value).y(-value));
        }

        final VarArrayFW<PointFW> array = builder.build();

        assertEquals(size, array.limit());
        assertEquals(64, array.count());
        final int[] index = {0};
        array.forEach(p ->
        {
            assertEquals(index[0], p.x());
            assertEquals(-index[0], p.y());
            index[0]++;
        });
    }

    @Test
    void shouldHoldUpTo127ItemsInArray8()
    {
        final byte[] encoded = encode(new ArraysFW.Builder(), b ->
        {
            for (int i = 0; i < 127; i++)
            {
                final int value = i;
                b.pointsItem(p -> p.x(value).y(value));
            }
        });

        final ArraysFW arrays = new ArraysFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(127, arrays.points().count());
        assertEquals(1 + 127 * PointFW.SIZEOF, arrays.points().sizeof());
        assertEquals(126, arrays.points().matchFirst(p -> p.x() == 126).y());
    }

    @Test
    void shouldBuildStandaloneArraysInEitherByteOrder()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
        final Array32FW<PointFW> big = new Array32FW.Builder<>(new PointFW.Builder(), new PointFW(), ByteOrder.BIG_ENDIAN)
            .wrap(buffer, 0, buffer.capacity())
            .item(p -> p.x(1).y(2))
            .build();
        assertArrayEquals(bytes(0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 2), Buffers.copy(big));

        final Array32FW<PointFW> little = new Array32FW.Builder<>(new PointFW.Builder(), new PointFW(), ByteOrder.LITTLE_ENDIAN)
            .wrap(buffer, 0, buffer.capacity())
            .setNull()
            .build();
        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0xff), Buffers.copy(little));
        assertTrue(little.isNull());

        final Array16FW<PointFW> array16 = new Array16FW.Builder<>(new PointFW.Builder(), new PointFW(), ByteOrder.LITTLE_ENDIAN)
            .wrap(buffer, 0, buffer.capacity())
            .item(p -> p.x(0).y(0))
            .build();
        assertArrayEquals(bytes(0x01, 0x00), Buffers.bytes(buffer, 0, 2));
        assertEquals(1, array16.count());

        final Array8FW<PointFW> array8 = new Array8FW.Builder<>(new PointFW.Builder(), new PointFW())
            .wrap(buffer, 0, buffer.capacity())
            .setNull()
            .build();
        assertEquals(-1, array8.count());
        assertEquals(1, array8.sizeof());
    }

    @Test
    void shouldRejectNullAfterItemsAndItemsAfterNull()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[32]);
        final VarArrayFW.Builder<PointFW.Builder, PointFW> builder =
            new VarArrayFW.Builder<>(new PointFW.Builder(), new PointFW());

        builder.wrap(buffer, 0, buffer.capacity()).item(p -> p.x(1).y(1));
        assertThrows(IllegalStateException.class, builder::setNull);
        assertEquals(1, builder.count());

        builder.wrap(buffer, 0, buffer.capacity()).setNull();
        assertEquals(-1, builder.count());
        assertThrows(IllegalStateException.class, () -> builder.item(p -> p.x(1).y(1)));
        assertEquals(-1, builder.build().count());
    }

    @Test
    void shouldRoundTripArraysOfUnionsEnumsAndDerivedStructs()
    {
        final byte[] encoded = encode(new HolderFW.Builder(), b -> b
            .mixedItem(m -> m.small(1))
            .mixedItem(m -> m.method(Method.POST))
            .mixedItem(m -> m.wide(Wide.LOWEST))
            .mixedItem(m -> m.text("mixed"))
            .tokensItem(t -> t.set(Token.BETA))
            .tokensItem(t -> t.set(Token.EMPTY))
            .derivedItem(d -> d.typeId(DerivedFW.TYPE_ID).name("one"))
            .derivedItem(d -> d.typeId(DerivedFW.TYPE_ID).id(2L).name((String) null))
            .ported(p -> p.rest(bytes(1, 2))));

        final HolderFW holder = new HolderFW().wrap(exact(encoded), 0, encoded.length);

        final List<Integer> kinds = new ArrayList<>();
        holder.mixed().forEach(m -> kinds.add(m.rawKind()));
        assertEquals(List.of(MixedFW.KIND_SMALL, MixedFW.KIND_METHOD, MixedFW.KIND_WIDE, MixedFW.KIND_TEXT), kinds);
        assertSame(Method.POST, holder.mixed().matchFirst(m -> m.rawKind() == MixedFW.KIND_METHOD).method());
        assertEquals("mixed", holder.mixed().matchFirst(m -> m.rawKind() == MixedFW.KIND_TEXT).text().asString());
        assertTrue(holder.tagged().isNull());
        assertEquals(2, holder.tokens().count());
        assertSame(Token.EMPTY, holder.tokens().matchFirst(t -> t.get() != Token.BETA).get());
        assertEquals(2, holder.derived().count());
        final List<String> derived = new ArrayList<>();
        holder.derived().forEach(d -> derived.add(d.id() + "=" + d.name().asString()));
        assertEquals(List.of("0=one", "2=null"), derived);
        assertSame(Port.LAST_PORT, holder.ported().kind());
        assertEquals(2, holder.ported().rest().sizeof());
    }

    @Test
    void shouldCopyUnionItemFromFlyweight()
    {
        final byte[] shape = encode(new ShapeFW.Builder(), b -> b.offset64(-5L));
        final ShapeFW source = new ShapeFW().wrap(exact(shape), 0, shape.length);

        final byte[] encoded = encode(new ArraysFW.Builder(), b -> b.entriesItem(e -> e.key("copied").value(source)));

        final ArraysFW arrays = new ArraysFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(-5L, arrays.entries().matchFirst(e -> true).value().offset64());
    }
}
