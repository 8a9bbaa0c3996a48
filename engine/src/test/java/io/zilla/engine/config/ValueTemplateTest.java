/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

class ValueTemplateTest
{
    @Test
    void shouldGiveTheBytesOfAValueWithoutParametersAsItsConstant()
    {
        assertArrayEquals("items".getBytes(UTF_8), ValueTemplate.parse("topic", "items").constant());
        assertArrayEquals(new byte[0], ValueTemplate.parse("topic", "").constant());
    }

    @Test
    void shouldHaveNoConstantWhenTheValueNamesAParameterOrAVariable()
    {
        assertNull(ValueTemplate.parse("key", "${params.id}").constant());
        assertNull(ValueTemplate.parse("key", "items-${params.id}").constant());
        assertNull(ValueTemplate.parse("key", "${idempotencyKey}", "idempotencyKey").constant());
    }

    @Test
    void shouldResolveParametersFromThePathTheyWereCapturedFrom()
    {
        final PathPattern pattern = PathPattern.compile("/items/{id}");
        final UnsafeBuffer path = new UnsafeBuffer("/items/a%2Fb".getBytes(UTF_8));
        final int[] starts = new int[pattern.parts()];
        final int[] ends = new int[pattern.parts()];
        assertEquals(true, pattern.matches(path, 0, path.capacity(), starts, ends));
        final UnsafeBuffer target = new UnsafeBuffer(new byte[64]);
        final int length = ValueTemplate.parse("key", "item-${params.id}").resolve(pattern, path, starts, ends, target, 0,
            target.capacity());
        assertEquals("item-a/b", target.getStringWithoutLengthUtf8(0, length));
    }
}
