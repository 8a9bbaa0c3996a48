/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight;

import static io.zilla.specs.flyweight.Buffers.bytes;
import static io.zilla.specs.flyweight.Buffers.encode;
import static io.zilla.specs.flyweight.Buffers.exact;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteOrder;

import io.zilla.specs.test.types.StringsFW;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StringsTest
{
    private static final String GREETING = "hello, \"zilla\"";

    @Test
    void shouldRoundTripEveryStringField()
    {
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b
            .s8("one")
            .s16("two")
            .vs("three")
            .typed("four")
            .greeting("five"));

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertString("one", strings.s8());
        assertString("two", strings.s16());
        assertString("three", strings.vs());
        assertString("four", strings.typed());
        assertString("five", strings.greeting());
        assertEquals(1 + 3 + 2 + 3 + 1 + 5 + 2 + 4 + 1 + 4, strings.sizeof());
        assertEquals("StringsFW[s8=\"one\", s16=\"two\", vs=\"three\", typed=\"four\", greeting=\"five\"]", strings.toString());
    }

    @Test
    void shouldLayOutLengthPrefixes()
    {
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b
            .s8("a")
            .s16("bc")
            .vs("def")
            .typed((String) null)
            .greeting(""));

        assertArrayEquals(bytes(
            0x01, 'a',
            0x00, 0x02, 'b', 'c',
            0x06, 'd', 'e', 'f',
            0xff, 0xff,
            0x00), encoded);
    }

    @Test
    void shouldRoundTripNulls()
    {
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b
            .s8((String) null)
            .s16((String) null)
            .vs((String) null)
            .typed((String) null)
            .greeting((String) null));

        assertArrayEquals(bytes(0xff, 0xff, 0xff, 0x01, 0xff, 0xff, 0xff), encoded);

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertNullString(strings.s8());
        assertNullString(strings.s16());
        assertNullString(strings.vs());
        assertNullString(strings.typed());
        assertNullString(strings.greeting());
        assertEquals("StringsFW[s8=null, s16=null, vs=null, typed=null, greeting=null]", strings.toString());
    }

    @Test
    void shouldRoundTripEmptyStrings()
    {
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b
            .s8("")
            .s16("")
            .vs("")
            .typed("")
            .greeting(""));

        assertArrayEquals(bytes(0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00), encoded);

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertString("", strings.s8());
        assertString("", strings.s16());
        assertString("", strings.vs());
        assertString("", strings.typed());
        assertString("", strings.greeting());
        assertFalse(strings.s8().isNull());
        assertEquals(0, strings.s8().value().capacity());
    }

    @Test
    void shouldFillStringDefaultsWhenSkipped()
    {
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b.s8("x").s16("y").vs("z"));

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertNullString(strings.typed());
        assertString(GREETING, strings.greeting());
        assertEquals(GREETING.length(), strings.greeting().length());
        assertEquals("\"" + GREETING + "\"", strings.greeting().toString());
    }

    @Test
    void shouldFillDefaultOfSkippedFieldBeforeNextSetter()
    {
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b.s8("x").s16("y").vs("z").greeting("g"));

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertNullString(strings.typed());
        assertString("g", strings.greeting());
    }

    @Test
    void shouldKeepExplicitValueOverDefault()
    {
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b.s8("x").s16("y").vs("z").typed("t"));

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertString("t", strings.typed());
        assertString(GREETING, strings.greeting());
    }

    @Test
    void shouldRoundTripLongestString8()
    {
        final String longest = "x".repeat(String8FW.MAX_LENGTH);
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b.s8(longest).s16(longest).vs(longest));

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertEquals(127, String8FW.MAX_LENGTH);
        assertEquals(0x7f, encoded[0]);
        assertString(longest, strings.s8());
        assertString(longest, strings.s16());
        assertString(longest, strings.vs());
        assertEquals(128, strings.s8().sizeof());
        assertEquals(129, strings.s16().sizeof());
        assertEquals(129, strings.vs().sizeof());
    }

    @Test
    void shouldRoundTripLongestString16()
    {
        final String longest = "y".repeat(String16FW.MAX_LENGTH);
        final byte[] encoded = encode(new String16FW.Builder(), b -> b.set(longest));

        assertEquals(2 + 32767, encoded.length);
        assertEquals(0x7f, encoded[0]);
        assertEquals((byte) 0xff, encoded[1]);
        final String16FW string = new String16FW().wrap(exact(encoded), 0, encoded.length);
        assertString(longest, string);
    }

    @Test
    void shouldRoundTripMultiByteUtf8()
    {
        final String text = "zïllä ☃ \uD83D\uDE80 日本";
        final int size = text.getBytes(UTF_8).length;
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b.s8(text).s16(text).vs(text).typed(text).greeting(text));

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertTrue(size > text.length());
        assertString(text, strings.s8());
        assertString(text, strings.s16());
        assertString(text, strings.vs());
        assertString(text, strings.typed());
        assertString(text, strings.greeting());
        assertEquals(size, strings.s8().length());
    }

    @Test
    void shouldAcceptString8OfExactly127MultiByteBytes()
    {
        final String text = "é".repeat(63) + "x";
        assertEquals(127, text.getBytes(UTF_8).length);

        final byte[] encoded = encode(new String8FW.Builder(), b -> b.set(text));

        assertString(text, new String8FW().wrap(exact(encoded), 0, encoded.length));
    }

    @ParameterizedTest(name = "varstring of {0} bytes has a {1}-byte prefix")
    @CsvSource({
        "0, 1",
        "1, 1",
        "63, 1",
        "64, 2",
        "8191, 2",
        "8192, 3"
    })
    void shouldGrowVarStringPrefix(int length, int prefixSize)
    {
        final String text = "v".repeat(length);
        final byte[] encoded = encode(new VarStringFW.Builder(), b -> b.set(text));

        assertEquals(prefixSize + length, encoded.length);
        final VarStringFW string = new VarStringFW().wrap(exact(encoded), 0, encoded.length);
        assertEquals(prefixSize, string.valueOffset());
        assertString(text, string);
    }

    @Test
    void shouldSetFromBufferRegion()
    {
        final UnsafeBuffer source = new UnsafeBuffer("--payload--".getBytes(UTF_8));
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b
            .s8(source, 2, 7)
            .s16(source, 0, 0)
            .vs(source, 2, 3)
            .typed(source, 9, 2)
            .greeting(source, 0, 11));

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertString("payload", strings.s8());
        assertString("", strings.s16());
        assertString("pay", strings.vs());
        assertString("--", strings.typed());
        assertString("--payload--", strings.greeting());
    }

    @Test
    void shouldCopyStringsAcrossPrefixKinds()
    {
        final byte[] source = encode(new StringsFW.Builder(), b -> b.s8("eight").s16((String) null).vs("var").typed(""));
        final StringsFW from = new StringsFW().wrap(exact(source), 0, source.length);

        final byte[] encoded = encode(new StringsFW.Builder(), b -> b
            .s8(from.vs())
            .s16(from.s8())
            .vs(from.s16())
            .typed(from.greeting())
            .greeting(from.typed()));

        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertString("var", strings.s8());
        assertString("eight", strings.s16());
        assertNullString(strings.vs());
        assertString(GREETING, strings.typed());
        assertString("", strings.greeting());
    }

    @Test
    void shouldCompareContent()
    {
        final byte[] encoded = encode(new StringsFW.Builder(), b -> b
            .s8("same value here")
            .s16("same value here")
            .vs("same value hers")
            .typed((String) null)
            .greeting((String) null));
        final StringsFW strings = new StringsFW().wrap(exact(encoded), 0, encoded.length);

        assertTrue(strings.s8().contentEquals(strings.s16()));
        assertTrue(strings.s16().contentEquals(strings.s8()));
        assertFalse(strings.s8().contentEquals(strings.vs()));
        assertTrue(strings.typed().contentEquals(strings.greeting()));
        assertFalse(strings.typed().contentEquals(strings.s8()));
        assertFalse(strings.s8().contentEquals(strings.typed()));

        final byte[] empty = encode(new StringsFW.Builder(), b -> b.s8("").s16("").vs("s").typed((String) null));
        final StringsFW empties = new StringsFW().wrap(exact(empty), 0, empty.length);
        assertTrue(empties.s8().contentEquals(empties.s16()));
        assertFalse(empties.s8().contentEquals(empties.typed()));
    }

    @Test
    void shouldViewValueWithoutCopying()
    {
        final byte[] encoded = encode(new String16FW.Builder(), b -> b.set("view"));
        final UnsafeBuffer buffer = exact(encoded);
        final String16FW string = new String16FW().wrap(buffer, 0, buffer.capacity());

        final DirectBuffer value = string.value();
        assertEquals(4, value.capacity());
        assertEquals('v', value.getByte(0));
        buffer.putByte(2, (byte) 'V');
        assertEquals("View", string.asString());
        assertEquals(2, string.valueOffset());
    }

    @Test
    void shouldWriteString16PrefixInRequestedByteOrder()
    {
        final byte[] little = encode(new String16FW.Builder(ByteOrder.LITTLE_ENDIAN), b -> b.set("x".repeat(0x102)));
        assertEquals(0x02, little[0]);
        assertEquals(0x01, little[1]);
        assertString("x".repeat(0x102), new String16FW(ByteOrder.LITTLE_ENDIAN).wrap(exact(little), 0, little.length));

        final byte[] big = encode(new String16FW.Builder(), b -> b.set("x".repeat(0x102)));
        assertEquals(0x01, big[0]);
        assertEquals(0x02, big[1]);

        final byte[] nullLittle = encode(new String16FW.Builder(ByteOrder.LITTLE_ENDIAN), b -> b.setNull());
        assertArrayEquals(bytes(0xff, 0xff), nullLittle);
    }

    private static void assertString(String expected, StringFW actual)
    {
        final byte[] utf8 = expected.getBytes(UTF_8);
        assertFalse(actual.isNull());
        assertEquals(expected, actual.asString());
        assertEquals(utf8.length, actual.length());
        assertEquals(utf8.length, actual.value().capacity());
        assertArrayEquals(utf8, Buffers.bytes(actual.value(), 0, utf8.length));
        assertEquals(actual.valueOffset() + utf8.length, actual.limit());
        assertEquals('"' + expected + '"', actual.toString());
    }

    private static void assertNullString(StringFW actual)
    {
        assertTrue(actual.isNull());
        assertEquals(-1, actual.length());
        assertNull(actual.asString());
        assertNull(actual.value());
        assertEquals(actual.valueOffset(), actual.limit());
        assertEquals("null", actual.toString());
    }
}
