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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.ByteOrder;

import io.zilla.specs.test.types.Code;
import io.zilla.specs.test.types.Color;
import io.zilla.specs.test.types.ColorFW;
import io.zilla.specs.test.types.Header;
import io.zilla.specs.test.types.HeaderFW;
import io.zilla.specs.test.types.Level;
import io.zilla.specs.test.types.Method;
import io.zilla.specs.test.types.MethodFW;
import io.zilla.specs.test.types.MoreEnumsFW;
import io.zilla.specs.test.types.Port;
import io.zilla.specs.test.types.PortFW;
import io.zilla.specs.test.types.Tiny;
import io.zilla.specs.test.types.Token;
import io.zilla.specs.test.types.TokenFW;
import io.zilla.specs.test.types.Unsigned;
import io.zilla.specs.test.types.UnsignedFW;
import io.zilla.specs.test.types.Wide;
import io.zilla.specs.test.types.WideFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class EnumsTest
{
    @Test
    void shouldNumberConstantsFromPrevious()
    {
        assertEquals(0, Color.RED.value());
        assertEquals(5, Color.GREEN.value());
        assertEquals(6, Color.BLUE.value());
        assertEquals(80, Port.HTTP.value());
        assertEquals(81, Port.HTTPS.value());
        assertEquals(65535, Port.LAST_PORT.value());
    }

    @Test
    void shouldLookUpNumericConstants()
    {
        assertSame(Color.RED, Color.valueOf(0));
        assertSame(Color.GREEN, Color.valueOf(5));
        assertSame(Color.BLUE, Color.valueOf(6));
        assertNull(Color.valueOf(1));
        assertNull(Color.valueOf(7));
        assertNull(Color.valueOf(255));
        assertSame(Wide.LOWEST, Wide.valueOf(Long.MIN_VALUE));
        assertSame(Wide.HIGHEST, Wide.valueOf(Long.MAX_VALUE));
        assertNull(Wide.valueOf(0L));
        assertSame(Unsigned.TOP, Unsigned.valueOf(0xffff_ffffL));
        assertSame(Unsigned.ZERO, Unsigned.valueOf(0L));
        assertNull(Unsigned.valueOf(-1L));
        assertSame(Tiny.NEGATIVE, Tiny.valueOf(-128));
        assertNull(Tiny.valueOf(128));
        assertSame(Level.FLOOR, Level.valueOf(-32768));
        assertSame(Code.MAX_CODE, Code.valueOf(Integer.MAX_VALUE));
        assertSame(Code.MIN_CODE, Code.valueOf(Integer.MIN_VALUE));
        assertNull(Code.valueOf(0));
    }

    @Test
    void shouldLookUpStringConstants()
    {
        assertSame(Method.CUSTOM, Method.valueOf(new UnsafeBuffer("..x-custom".getBytes(UTF_8)), 2, 8));
        assertSame(Method.GET, Method.valueOf(new UnsafeBuffer("GET".getBytes(UTF_8)), 0, 3));
        assertNull(Method.valueOf(new UnsafeBuffer("GETS".getBytes(UTF_8)), 0, 4));
        assertNull(Method.valueOf(new UnsafeBuffer("get".getBytes(UTF_8)), 0, 3));
        assertNull(Method.valueOf(new UnsafeBuffer("GET".getBytes(UTF_8)), 0, 2));
        assertEquals("ALPHA", Token.ALPHA.value());
        assertEquals("béta", Token.BETA.value());
        assertEquals("", Token.EMPTY.value());
        assertSame(Token.EMPTY, Token.valueOf(new UnsafeBuffer(new byte[0]), 0, 0));
        assertEquals("PLAIN", Header.PLAIN.value());
        assertEquals("a\tb", Header.TABBED.value());
        assertEquals("say \"hi\"", Header.QUOTED.value());
        assertArrayEquals("béta".getBytes(UTF_8), Buffers.bytes(Token.BETA.encoded(), 0, Token.BETA.encoded().capacity()));
    }

    @ParameterizedTest
    @EnumSource(Color.class)
    void shouldRoundTripUint8Enum(Color color)
    {
        final byte[] encoded = encode(new ColorFW.Builder(), b -> b.set(color));

        assertArrayEquals(bytes(color.value()), encoded);
        final ColorFW flyweight = new ColorFW().wrap(exact(encoded), 0, encoded.length);
        assertSame(color, flyweight.get());
        assertEquals(color.name(), flyweight.toString());
    }

    @ParameterizedTest
    @EnumSource(Wide.class)
    void shouldRoundTripInt64Enum(Wide wide)
    {
        final byte[] encoded = encode(new WideFW.Builder(), b -> b.set(wide));

        assertEquals(8, encoded.length);
        assertEquals(wide.value(), exact(encoded).getLong(0, ByteOrder.BIG_ENDIAN));
        assertSame(wide, new WideFW().wrap(exact(encoded), 0, encoded.length).get());
    }

    @ParameterizedTest
    @EnumSource(Unsigned.class)
    void shouldRoundTripUint32Enum(Unsigned unsigned)
    {
        final byte[] encoded = encode(new UnsignedFW.Builder(), b -> b.set(unsigned));

        assertEquals(4, encoded.length);
        assertEquals(unsigned.value(), exact(encoded).getInt(0, ByteOrder.BIG_ENDIAN) & 0xffff_ffffL);
        assertSame(unsigned, new UnsignedFW().wrap(exact(encoded), 0, encoded.length).get());
    }

    @ParameterizedTest
    @EnumSource(Port.class)
    void shouldRoundTripUint16Enum(Port port)
    {
        final byte[] encoded = encode(new PortFW.Builder(), b -> b.set(port));

        assertArrayEquals(bytes(port.value() >> 8, port.value()), encoded);
        assertSame(port, new PortFW().wrap(exact(encoded), 0, encoded.length).get());
    }

    @ParameterizedTest
    @EnumSource(Method.class)
    void shouldRoundTripString8Enum(Method method)
    {
        final byte[] encoded = encode(new MethodFW.Builder(), b -> b.set(method));

        final byte[] utf8 = method.value().getBytes(UTF_8);
        assertEquals(1 + utf8.length, encoded.length);
        assertEquals(utf8.length, encoded[0]);
        final MethodFW flyweight = new MethodFW().wrap(exact(encoded), 0, encoded.length);
        assertSame(method, flyweight.get());
        assertEquals(method.name(), flyweight.toString());
        assertEquals(encoded.length, flyweight.sizeof());
    }

    @ParameterizedTest
    @EnumSource(Token.class)
    void shouldRoundTripString16Enum(Token token)
    {
        final byte[] encoded = encode(new TokenFW.Builder(), b -> b.set(token));

        final byte[] utf8 = token.value().getBytes(UTF_8);
        assertEquals(2 + utf8.length, encoded.length);
        assertEquals(utf8.length, exact(encoded).getShort(0, ByteOrder.BIG_ENDIAN));
        assertSame(token, new TokenFW().wrap(exact(encoded), 0, encoded.length).get());
    }

    @ParameterizedTest
    @EnumSource(Header.class)
    void shouldRoundTripVarStringEnum(Header header)
    {
        final byte[] encoded = encode(new HeaderFW.Builder(), b -> b.set(header));

        final byte[] utf8 = header.value().getBytes(UTF_8);
        assertEquals(1 + utf8.length, encoded.length);
        assertEquals(utf8.length * 2, encoded[0]);
        assertSame(header, new HeaderFW().wrap(exact(encoded), 0, encoded.length).get());
    }

    @Test
    void shouldRoundTripEnumFieldsOfEveryUnderlyingType()
    {
        final byte[] encoded = encode(new MoreEnumsFW.Builder(), b -> b
            .tiny(Tiny.NEGATIVE)
            .level(Level.CEILING)
            .code(Code.MIN_CODE)
            .port(Port.HTTPS)
            .token(Token.BETA)
            .header(Header.TABBED));

        assertArrayEquals(bytes(
            0x80,
            0x7f, 0xff,
            0x80, 0x00, 0x00, 0x00,
            0x00, 0x51,
            0x00, 0x05, 'b', 0xc3, 0xa9, 't', 'a',
            0x06, 'a', '\t', 'b'), encoded);

        final MoreEnumsFW enums = new MoreEnumsFW().wrap(exact(encoded), 0, encoded.length);
        assertSame(Tiny.NEGATIVE, enums.tiny());
        assertSame(Level.CEILING, enums.level());
        assertSame(Code.MIN_CODE, enums.code());
        assertSame(Port.HTTPS, enums.port());
        assertSame(Token.BETA, enums.token());
        assertSame(Header.TABBED, enums.header());
        assertEquals("MoreEnumsFW[tiny=NEGATIVE, level=CEILING, code=MIN_CODE, port=HTTPS, token=BETA, header=TABBED]",
            enums.toString());
    }

    @Test
    void shouldFillEnumDefaultsWhenSkipped()
    {
        final byte[] encoded = encode(new MoreEnumsFW.Builder(), b -> b
            .tiny(Tiny.POSITIVE)
            .level(Level.FLOOR)
            .code(Code.MAX_CODE)
            .token(Token.EMPTY));

        final MoreEnumsFW enums = new MoreEnumsFW().wrap(exact(encoded), 0, encoded.length);
        assertSame(Tiny.POSITIVE, enums.tiny());
        assertSame(Level.FLOOR, enums.level());
        assertSame(Code.MAX_CODE, enums.code());
        assertSame(Port.LAST_PORT, enums.port());
        assertSame(Token.EMPTY, enums.token());
        assertSame(Header.QUOTED, enums.header());
    }
}
