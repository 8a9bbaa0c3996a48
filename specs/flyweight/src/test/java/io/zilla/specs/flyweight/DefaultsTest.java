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

import io.zilla.specs.test.types.Color;
import io.zilla.specs.test.types.DefaultsFW;
import io.zilla.specs.test.types.Method;
import io.zilla.specs.test.types.MoreDefaultsFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class DefaultsTest
{
    @Test
    void shouldFillEveryDefaultAfterRequiredField()
    {
        final byte[] encoded = encode(new DefaultsFW.Builder(), b -> b.required(-7));

        assertArrayEquals(bytes(
            0xff, 0xff, 0xff, 0xf9,
            0x00, 0x00, 0x00, 0x2a,
            0x05,
            0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
            0xd7, 0x04,
            0x04, 'P', 'O', 'S', 'T',
            0xff, 0xff, 0xff, 0xff), encoded);

        final DefaultsFW defaults = new DefaultsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(-7, defaults.required());
        assertEquals(42, defaults.answer());
        assertSame(Color.GREEN, defaults.color());
        assertEquals(-1L, defaults.timestamp());
        assertEquals(-300L, defaults.delta());
        assertSame(Method.POST, defaults.method());
        assertEquals(0xffff_ffffL, defaults.big());
        assertEquals("DefaultsFW[required=-7, answer=42, color=GREEN, timestamp=-1, delta=-300, method=POST, big=4294967295]",
            defaults.toString());
    }

    @Test
    void shouldFillOnlyTheSkippedDefaults()
    {
        final byte[] encoded = encode(new DefaultsFW.Builder(), b -> b
            .required(1)
            .color(Color.RED)
            .delta(Long.MIN_VALUE)
            .big(0L));

        final DefaultsFW defaults = new DefaultsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(1, defaults.required());
        assertEquals(42, defaults.answer());
        assertSame(Color.RED, defaults.color());
        assertEquals(-1L, defaults.timestamp());
        assertEquals(Long.MIN_VALUE, defaults.delta());
        assertSame(Method.POST, defaults.method());
        assertEquals(0L, defaults.big());
    }

    @Test
    void shouldOverrideEveryDefault()
    {
        final byte[] encoded = encode(new DefaultsFW.Builder(), b -> b
            .required(Integer.MAX_VALUE)
            .answer(0)
            .color(Color.BLUE)
            .timestamp(Long.MAX_VALUE)
            .delta(0L)
            .method(Method.CUSTOM)
            .big(1L));

        final DefaultsFW defaults = new DefaultsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(Integer.MAX_VALUE, defaults.required());
        assertEquals(0, defaults.answer());
        assertSame(Color.BLUE, defaults.color());
        assertEquals(Long.MAX_VALUE, defaults.timestamp());
        assertEquals(0L, defaults.delta());
        assertSame(Method.CUSTOM, defaults.method());
        assertEquals(1L, defaults.big());
        assertEquals(4 + 4 + 1 + 8 + 1 + 9 + 4, defaults.sizeof());
    }

    @Test
    void shouldFillLimitDefaultsOfEveryIntegerKind()
    {
        final byte[] encoded = encode(new MoreDefaultsFW.Builder(), b ->
        {
        });

        assertArrayEquals(bytes(
            0x80,
            0xff,
            0x80, 0x00,
            0xff, 0xff,
            0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
            0xff, 0xff, 0xff, 0xff, 0x0f,
            0xff, 0xff, 0xff, 0xff, 0x0f,
            0xff, 0xff,
            0x00), encoded);

        final MoreDefaultsFW defaults = new MoreDefaultsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(-128, defaults.small());
        assertEquals(255, defaults.byteMax());
        assertEquals(-32768, defaults.shortMin());
        assertEquals(65535, defaults.ushortMax());
        assertEquals(Long.MIN_VALUE, defaults.longMin());
        assertEquals(Integer.MIN_VALUE, defaults.varMin());
        assertEquals(0xffff_ffffL, defaults.varMax());
        assertTrue(defaults.note().isNull());
        assertEquals("", defaults.tag().asString());
    }

    @Test
    void shouldFillDefaultsAfterLastFieldSet()
    {
        final byte[] encoded = encode(new MoreDefaultsFW.Builder(), b -> b.small(0).byteMax(1).note("n"));

        final MoreDefaultsFW defaults = new MoreDefaultsFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(0, defaults.small());
        assertEquals(1, defaults.byteMax());
        assertEquals(-32768, defaults.shortMin());
        assertEquals(Integer.MIN_VALUE, defaults.varMin());
        assertEquals("n", defaults.note().asString());
        assertEquals("", defaults.tag().asString());
    }

    @Test
    void shouldStartAfreshWhenBuilderIsWrappedAgain()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final DefaultsFW.Builder builder = new DefaultsFW.Builder();

        final DefaultsFW first = builder.wrap(buffer, 0, buffer.capacity()).required(1).answer(2).build();
        final int firstLimit = first.limit();
        final DefaultsFW second = builder.wrap(buffer, firstLimit, buffer.capacity()).required(3).build();

        assertEquals(firstLimit, second.offset());
        assertEquals(3, second.required());
        assertEquals(42, second.answer());
        final DefaultsFW reread = new DefaultsFW().wrap(buffer, 0, firstLimit);
        assertEquals(1, reread.required());
        assertEquals(2, reread.answer());
        assertEquals(firstLimit, reread.limit());
    }

    @Test
    void shouldBuildTheSameValueTwice()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        final DefaultsFW.Builder builder = new DefaultsFW.Builder().wrap(buffer, 0, buffer.capacity()).required(5);

        final int limit = builder.build().limit();

        assertEquals(limit, builder.build().limit());
        assertEquals(limit, builder.limit());
    }
}
