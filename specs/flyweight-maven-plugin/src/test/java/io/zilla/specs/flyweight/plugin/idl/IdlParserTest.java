/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;

import org.junit.jupiter.api.Test;

class IdlParserTest
{
    @Test
    void shouldParseEmptyFile()
    {
        final Ast.File file = IdlParser.parse("empty.idl", "  // nothing but a comment\n");

        assertEquals("empty.idl", file.name());
        assertTrue(file.scopes().isEmpty());
    }

    @Test
    void shouldParseNestedScopesAndByteOrder()
    {
        final Ast.File file = IdlParser.parse("t.idl", """
            scope core
            {
                option byteorder native;

                scope stream
                {
                    option byteorder network;
                }

                scope empty
                {
                }
            }

            scope other
            {
            }
            """);

        assertEquals(List.of("core", "other"), file.scopes().stream().map(Ast.Scope::name).toList());
        final Ast.Scope core = file.scopes().get(0);
        assertEquals(new Position("t.idl", 1, 1), core.position());
        assertEquals("native", core.byteOrder().value());
        assertEquals(new Position("t.idl", 3, 12), core.byteOrder().position());
        assertEquals(List.of("stream", "empty"), core.scopes().stream().map(Ast.Scope::name).toList());
        assertEquals("network", core.scopes().get(0).byteOrder().value());
        assertEquals(new Position("t.idl", 5, 5), core.scopes().get(0).position());
        assertNull(core.scopes().get(1).byteOrder());
        assertTrue(core.scopes().get(1).definitions().isEmpty());
        assertNull(file.scopes().get(1).byteOrder());
    }

    @Test
    void shouldParseStructWithQualifiedSupertypeAndTypeId()
    {
        final Ast.Struct reset = (Ast.Struct) single("""
            scope s
            {
                struct Reset extends core::stream::Frame [0x40000001]
                {
                    int64 affinity;
                }
            }
            """);

        assertEquals("Reset", reset.name());
        assertEquals(new Position("t.idl", 3, 5), reset.position());
        final Ast.NamedType supertype = assertInstanceOf(Ast.NamedType.class, reset.supertype());
        assertEquals("core::stream::Frame", supertype.name());
        assertEquals(new Position("t.idl", 3, 26), supertype.position());
        assertEquals(Ast.LiteralKind.NUMBER, reset.typeId().kind());
        assertEquals("0x40000001", reset.typeId().text());
        assertEquals(BigInteger.valueOf(0x40000001L), reset.typeId().number());
        assertEquals(1, reset.fields().size());
        final Ast.Field affinity = reset.fields().get(0);
        assertEquals("affinity", affinity.name());
        assertEquals(new Position("t.idl", 5, 9), affinity.position());
        assertEquals("int64", ((Ast.NamedType) affinity.type()).name());
        assertNull(affinity.defaultValue());
    }

    @Test
    void shouldParseStructWithoutSupertypeOrTypeId()
    {
        final Ast.Struct empty = (Ast.Struct) single("""
            scope s
            {
                struct Empty
                {
                }
            }
            """);

        assertNull(empty.supertype());
        assertNull(empty.typeId());
        assertTrue(empty.fields().isEmpty());
    }

    @Test
    void shouldParseTypeIdWithoutSupertype()
    {
        final Ast.Struct base = (Ast.Struct) single("""
            scope s
            {
                struct Base [7]
                {
                }
            }
            """);

        assertNull(base.supertype());
        assertEquals(BigInteger.valueOf(7), base.typeId().number());
    }

    @Test
    void shouldParseFieldDefaults()
    {
        final Ast.Struct struct = (Ast.Struct) single("""
            scope s
            {
                struct Defaults
                {
                    int32 answer = 42;
                    int32 negative = -7;
                    int64 hex = 0x7fff_FFFF;
                    int64 negativeHex = -0x80;
                    string8 text = "say \\"hi\\"\\\\\\n\\t\\r";
                    string16 nothing = null;
                    Color color = GREEN;
                    int8 plain;
                }
            }
            """);

        final List<Ast.Field> fields = struct.fields();
        assertEquals(List.of("answer", "negative", "hex", "negativeHex", "text", "nothing", "color", "plain"),
            fields.stream().map(Ast.Field::name).toList());

        assertLiteral(fields.get(0).defaultValue(), Ast.LiteralKind.NUMBER, "42", BigInteger.valueOf(42));
        assertLiteral(fields.get(1).defaultValue(), Ast.LiteralKind.NUMBER, "-7", BigInteger.valueOf(-7));
        assertEquals(new Position("t.idl", 6, 26), fields.get(1).defaultValue().position());
        assertLiteral(fields.get(2).defaultValue(), Ast.LiteralKind.NUMBER, "0x7fff_FFFF", BigInteger.valueOf(0x7fff_ffffL));
        assertLiteral(fields.get(3).defaultValue(), Ast.LiteralKind.NUMBER, "-0x80", BigInteger.valueOf(-128));
        assertLiteral(fields.get(4).defaultValue(), Ast.LiteralKind.STRING, "say \"hi\"\\\n\t\r", null);
        assertEquals(new Position("t.idl", 9, 24), fields.get(4).defaultValue().position());
        assertLiteral(fields.get(5).defaultValue(), Ast.LiteralKind.NULL, "null", null);
        assertLiteral(fields.get(6).defaultValue(), Ast.LiteralKind.IDENTIFIER, "GREEN", null);
        assertNull(fields.get(7).defaultValue());
    }

    @Test
    void shouldParseOctets()
    {
        final Ast.Struct struct = (Ast.Struct) single("""
            scope s
            {
                struct Blobs
                {
                    octets[4] fixed;
                    int32 length;
                    octets[length] sized;
                    octets rest;
                }
            }
            """);

        final Ast.OctetsType fixed = assertInstanceOf(Ast.OctetsType.class, struct.fields().get(0).type());
        assertEquals(BigInteger.valueOf(4), fixed.fixedSize().number());
        assertNull(fixed.sizeField());
        assertEquals(new Position("t.idl", 5, 9), fixed.position());

        final Ast.OctetsType sized = assertInstanceOf(Ast.OctetsType.class, struct.fields().get(2).type());
        assertNull(sized.fixedSize());
        assertEquals("length", sized.sizeField());

        final Ast.OctetsType rest = assertInstanceOf(Ast.OctetsType.class, struct.fields().get(3).type());
        assertNull(rest.fixedSize());
        assertNull(rest.sizeField());
    }

    @Test
    void shouldParseArrays()
    {
        final Ast.Struct struct = (Ast.Struct) single("""
            scope s
            {
                struct Arrays
                {
                    array8<Point> points;
                    array16<core::Name> names = null;
                    array32<Entry> entries;
                    vararray<Color> colors;
                    array8<array16<Point>> nested;
                }
            }
            """);

        final List<Ast.Field> fields = struct.fields();
        assertArray(fields.get(0).type(), "array8", "Point");
        assertArray(fields.get(1).type(), "array16", "core::Name");
        assertEquals(Ast.LiteralKind.NULL, fields.get(1).defaultValue().kind());
        assertArray(fields.get(2).type(), "array32", "Entry");
        assertArray(fields.get(3).type(), "vararray", "Color");
        final Ast.ArrayType nested = assertInstanceOf(Ast.ArrayType.class, fields.get(4).type());
        assertEquals("array8", nested.kind());
        assertArray(nested.item(), "array16", "Point");
        assertEquals(new Position("t.idl", 9, 16), nested.item().position());
    }

    @Test
    void shouldParseEnums()
    {
        final Ast.Scope scope = IdlParser.parse("t.idl", """
            scope s
            {
                enum Color { RED, GREEN(5), BLUE }
                enum Offset (int64)
                {
                    LATEST(-1),
                    EARLIEST(-2),
                }
                enum Method (string8) { GET("GET"), CUSTOM("x-custom"), POST }
            }
            """).scopes().get(0);

        final Ast.Enum color = (Ast.Enum) scope.definitions().get(0);
        assertEquals("Color", color.name());
        assertNull(color.underlying());
        assertEquals(List.of("RED", "GREEN", "BLUE"), color.constants().stream().map(Ast.Constant::name).toList());
        assertNull(color.constants().get(0).value());
        assertLiteral(color.constants().get(1).value(), Ast.LiteralKind.NUMBER, "5", BigInteger.valueOf(5));
        assertEquals(new Position("t.idl", 3, 23), color.constants().get(1).position());

        final Ast.Enum offset = (Ast.Enum) scope.definitions().get(1);
        assertEquals("int64", ((Ast.NamedType) offset.underlying()).name());
        assertEquals(2, offset.constants().size());
        assertLiteral(offset.constants().get(0).value(), Ast.LiteralKind.NUMBER, "-1", BigInteger.valueOf(-1));
        assertLiteral(offset.constants().get(1).value(), Ast.LiteralKind.NUMBER, "-2", BigInteger.valueOf(-2));

        final Ast.Enum method = (Ast.Enum) scope.definitions().get(2);
        assertEquals("string8", ((Ast.NamedType) method.underlying()).name());
        assertLiteral(method.constants().get(0).value(), Ast.LiteralKind.STRING, "GET", null);
        assertLiteral(method.constants().get(1).value(), Ast.LiteralKind.STRING, "x-custom", null);
        assertNull(method.constants().get(2).value());
    }

    @Test
    void shouldParseUnionOverInteger()
    {
        final Ast.Union shape = (Ast.Union) single("""
            scope s
            {
                union Shape switch (uint8)
                {
                    case 1: Circle circle;
                    case -2: string16 label;
                    case 0xff: octets rest;
                }
            }
            """);

        assertEquals("Shape", shape.name());
        assertEquals("uint8", ((Ast.NamedType) shape.discriminator()).name());
        assertNull(shape.supertype());
        assertNull(shape.typeId());
        assertEquals(List.of("circle", "label", "rest"), shape.cases().stream().map(Ast.Case::name).toList());
        final Ast.Case circle = shape.cases().get(0);
        assertEquals(new Position("t.idl", 5, 9), circle.position());
        assertLiteral(circle.label(), Ast.LiteralKind.NUMBER, "1", BigInteger.ONE);
        assertEquals("Circle", ((Ast.NamedType) circle.type()).name());
        assertLiteral(shape.cases().get(1).label(), Ast.LiteralKind.NUMBER, "-2", BigInteger.valueOf(-2));
        assertLiteral(shape.cases().get(2).label(), Ast.LiteralKind.NUMBER, "0xff", BigInteger.valueOf(255));
        assertInstanceOf(Ast.OctetsType.class, shape.cases().get(2).type());
    }

    @Test
    void shouldParseUnionOverEnumWithSupertypeAndTypeId()
    {
        final Ast.Union condition = (Ast.Union) single("""
            scope s
            {
                union Condition switch (Color) extends test::Base [0x10]
                {
                    case RED: string16 key;
                    case GREEN: Integers numbers;
                }
            }
            """);

        assertEquals("Color", ((Ast.NamedType) condition.discriminator()).name());
        assertEquals(new Position("t.idl", 3, 29), condition.discriminator().position());
        assertEquals("test::Base", ((Ast.NamedType) condition.supertype()).name());
        assertEquals(BigInteger.valueOf(16), condition.typeId().number());
        assertLiteral(condition.cases().get(0).label(), Ast.LiteralKind.IDENTIFIER, "RED", null);
        assertLiteral(condition.cases().get(1).label(), Ast.LiteralKind.IDENTIFIER, "GREEN", null);
        assertEquals("numbers", condition.cases().get(1).name());
    }

    @Test
    void shouldParseTypedefs()
    {
        final Ast.Scope scope = IdlParser.parse("t.idl", """
            scope s
            {
                typedef int64 Timestamp;
                typedef array16<Point> Points;
                typedef octets[2] Pair;
                typedef core::stream::Frame Header;
            }
            """).scopes().get(0);

        final List<Ast.Typedef> typedefs = scope.definitions().stream().map(Ast.Typedef.class::cast).toList();
        assertEquals(List.of("Timestamp", "Points", "Pair", "Header"), typedefs.stream().map(Ast.Typedef::name).toList());
        assertEquals("int64", ((Ast.NamedType) typedefs.get(0).type()).name());
        assertEquals(new Position("t.idl", 3, 5), typedefs.get(0).position());
        assertArray(typedefs.get(1).type(), "array16", "Point");
        assertEquals(BigInteger.TWO, ((Ast.OctetsType) typedefs.get(2).type()).fixedSize().number());
        assertEquals("core::stream::Frame", ((Ast.NamedType) typedefs.get(3).type()).name());
    }

    @Test
    void shouldKeepDefinitionsInOrderAcrossKinds()
    {
        final Ast.Scope scope = IdlParser.parse("t.idl", """
            scope s
            {
                typedef int64 Timestamp;
                enum Color { RED }
                struct Point { int32 x; int32 y; }
                union Shape switch (uint8) { case 1: Point point; }
            }
            """).scopes().get(0);

        final List<Ast.Definition> definitions = scope.definitions();
        assertEquals(List.of("Timestamp", "Color", "Point", "Shape"), definitions.stream().map(Ast.Definition::name).toList());
        assertInstanceOf(Ast.Typedef.class, definitions.get(0));
        assertInstanceOf(Ast.Enum.class, definitions.get(1));
        assertInstanceOf(Ast.Struct.class, definitions.get(2));
        assertInstanceOf(Ast.Union.class, definitions.get(3));
        assertEquals(2, ((Ast.Struct) definitions.get(2)).fields().size());
    }

    @Test
    void shouldIgnoreCommentsBetweenAnyTokens()
    {
        final Ast.Struct struct = (Ast.Struct) single("""
            scope s // the scope
            {
                /* a struct */ struct /* its name: */ Point
                {
                    int32 /* x */ x = /* the default */ -1; // trailing
                    // int32 y;
                }
            }
            """);

        assertEquals("Point", struct.name());
        assertEquals(new Position("t.idl", 3, 20), struct.position());
        assertEquals(1, struct.fields().size());
        assertEquals("x", struct.fields().get(0).name());
        assertEquals(BigInteger.valueOf(-1), struct.fields().get(0).defaultValue().number());
    }

    private static Ast.Definition single(String text)
    {
        final Ast.File file = IdlParser.parse("t.idl", text);
        assertEquals(1, file.scopes().size());
        assertEquals(1, file.scopes().get(0).definitions().size());
        return file.scopes().get(0).definitions().get(0);
    }

    private static void assertLiteral(Ast.Literal literal, Ast.LiteralKind kind, String text, BigInteger number)
    {
        assertEquals(kind, literal.kind());
        assertEquals(text, literal.text());
        assertEquals(number, literal.number());
    }

    private static void assertArray(Ast.TypeRef type, String kind, String item)
    {
        final Ast.ArrayType array = assertInstanceOf(Ast.ArrayType.class, type);
        assertEquals(kind, array.kind());
        assertEquals(item, assertInstanceOf(Ast.NamedType.class, array.item()).name());
    }
}
