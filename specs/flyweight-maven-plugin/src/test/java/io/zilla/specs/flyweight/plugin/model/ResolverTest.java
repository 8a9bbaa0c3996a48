/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.List;

import io.zilla.specs.flyweight.plugin.idl.IdlParser;
import io.zilla.specs.flyweight.plugin.idl.Position;
import org.junit.jupiter.api.Test;

class ResolverTest
{
    @Test
    void shouldSizeTheSameInheritedFieldInSiblingSubtypes()
    {
        final Model model = resolve("""
            scope s
            {
                struct Sized { int16 size; }
                struct First extends Sized { octets[size] first; }
                struct Second extends Sized { octets[size] second; }
            }
            """);

        assertNull(struct(model, "s::Sized").fields().get(0).sizedField());
        for (String name : List.of("s::First", "s::Second"))
        {
            final FieldModel size = struct(model, name).fields().get(0);
            final FieldModel octets = struct(model, name).fields().get(1);
            assertSame(octets, size.sizedField());
            assertSame(size, octets.sizeField());
        }
    }

    @Test
    void shouldLookUpNamesFromInnermostScopeOutward()
    {
        final Model model = resolve("""
            scope a
            {
                struct P { int8 outer; }
                struct Q { int8 q; }
                scope b
                {
                    struct P { int16 inner; }
                    scope c
                    {
                        struct User
                        {
                            P nearest;
                            Q enclosing;
                            a::P qualified;
                            b::P relative;
                            a::b::P full;
                        }
                    }
                }
            }
            """);

        final StructModel user = struct(model, "a::b::c::User");
        final NamedModel outerP = model.find("a::P");
        final NamedModel innerP = model.find("a::b::P");
        assertSame(innerP, user.fields().get(0).type());
        assertSame(model.find("a::Q"), user.fields().get(1).type());
        assertSame(outerP, user.fields().get(2).type());
        assertSame(innerP, user.fields().get(3).type());
        assertSame(innerP, user.fields().get(4).type());
    }

    @Test
    void shouldLookUpQualifiedNamesInOtherScopesAndFiles()
    {
        final Model model = Resolver.resolve(List.of(
            IdlParser.parse("core.idl", """
                scope core
                {
                    scope stream
                    {
                        struct Frame { int64 streamId; }
                    }
                }
                """),
            IdlParser.parse("kafka.idl", """
                scope kafka
                {
                    struct Wrapper
                    {
                        core::stream::Frame frame;
                    }
                }
                """)), List.of(), Resolver.DEFAULT_PACKAGE_PREFIX);

        assertSame(model.find("core::stream::Frame"), struct(model, "kafka::Wrapper").fields().get(0).type());
    }

    @Test
    void shouldPreferBuiltInTypes()
    {
        final Model model = resolve("""
            scope s
            {
                struct A
                {
                    int8 i8;
                    uint32 u32;
                    varuint32 vu32;
                    string16 s16;
                    varstring vs;
                }
            }
            """);

        assertEquals(List.of(Primitive.INT8, Primitive.UINT32, Primitive.VARUINT32, StringKind.STRING16, StringKind.VARSTRING),
            struct(model, "s::A").fields().stream().map(FieldModel::type).toList());
    }

    @Test
    void shouldResolveTypedefsToTheirTypes()
    {
        final Model model = resolve("""
            scope s
            {
                typedef int64 Timestamp;
                typedef Timestamp Instant;
                typedef Point Coord;
                typedef Color Hue;
                typedef string16 Name;
                typedef octets[2] Pair;
                typedef array16<Point> Points;

                enum Color { RED, BLUE }
                struct Point { int32 x; int32 y; }

                struct Typedefs
                {
                    Timestamp at = -1;
                    Instant instant;
                    Coord coord;
                    Hue hue = BLUE;
                    Name name = null;
                    Pair pair;
                    Points points;
                }
            }
            """);

        final List<FieldModel> fields = struct(model, "s::Typedefs").fields();
        assertSame(Primitive.INT64, fields.get(0).type());
        assertEquals(BigInteger.valueOf(-1), fields.get(0).defaultValue().number());
        assertSame(Primitive.INT64, fields.get(1).type());
        assertSame(model.find("s::Point"), fields.get(2).type());
        assertSame(model.find("s::Color"), fields.get(3).type());
        assertEquals("BLUE", fields.get(3).defaultValue().constant().name());
        assertSame(StringKind.STRING16, fields.get(4).type());
        assertTrue(fields.get(4).defaultValue().isNull());
        assertEquals(new OctetsModel(2, null), fields.get(5).type());
        assertEquals(new ArrayModel(ArrayKind.ARRAY16, model.find("s::Point")), fields.get(6).type());
        assertEquals(List.of("s::Color", "s::Point", "s::Typedefs"), names(model.types()));
    }

    @Test
    void shouldPutInheritedFieldsFirst()
    {
        final Model model = resolve("""
            scope s
            {
                struct Derived extends Base [0xc0000002]
                {
                    string8 name;
                }
                struct Base [0x01]
                {
                    int32 typeId;
                    int64 id = 0;
                }
                struct Leaf extends Derived
                {
                    int8 leaf;
                }
            }
            """);

        final StructModel base = struct(model, "s::Base");
        final StructModel derived = struct(model, "s::Derived");
        final StructModel leaf = struct(model, "s::Leaf");
        assertSame(base, derived.supertype());
        assertSame(derived, leaf.supertype());
        assertNull(base.supertype());
        assertEquals(List.of("typeId", "id", "name"), fieldNames(derived));
        assertEquals(List.of("typeId", "id", "name", "leaf"), fieldNames(leaf));
        // each subtype holds its own copies of the inherited fields, so that it can size them independently
        assertEquals(base.fields().get(0).name(), derived.fields().get(0).name());
        assertSame(base.fields().get(0).type(), derived.fields().get(0).type());
        assertEquals(1L, base.typeId());
        assertEquals(0xc0000002L, derived.typeId());
        assertNull(leaf.typeId());
    }

    @Test
    void shouldAcceptTypeIdsAtTheEdgesOf32Bits()
    {
        final Model model = resolve("""
            scope s
            {
                struct Top [0xffffffff] { }
                struct Bottom [-2147483648] { }
                union U switch (uint8) [0x40000001] { case 1: int8 a; }
            }
            """);

        assertEquals(0xffff_ffffL, struct(model, "s::Top").typeId());
        assertEquals(-2147483648L, struct(model, "s::Bottom").typeId());
        assertEquals(0x40000001L, ((UnionModel) model.find("s::U")).typeId());
    }

    @Test
    void shouldDefaultToNetworkByteOrder()
    {
        final Model model = resolve("""
            scope s
            {
                struct A { int32 x; }
                scope nested
                {
                    struct B { int32 y; }
                }
            }
            """);

        assertFalse(model.find("s::A").scope().nativeOrder());
        assertFalse(model.find("s::nested::B").scope().nativeOrder());
        assertFalse(struct(model, "s::A").fields().get(0).nativeOrder());
    }

    @Test
    void shouldInheritNativeByteOrderIntoNestedScopes()
    {
        final Model model = resolve("""
            scope core
            {
                option byteorder native;
                struct A { int32 x; }
                scope stream
                {
                    struct B { int32 y; }
                    scope wire
                    {
                        option byteorder network;
                        struct C extends core::stream::B { int32 z; }
                    }
                }
            }
            """);

        assertTrue(model.find("core::A").scope().nativeOrder());
        assertTrue(model.find("core::stream::B").scope().nativeOrder());
        assertFalse(model.find("core::stream::wire::C").scope().nativeOrder());
        final StructModel c = struct(model, "core::stream::wire::C");
        assertTrue(c.fields().get(0).nativeOrder(), "an inherited field keeps the order of its declaring scope");
        assertFalse(c.fields().get(1).nativeOrder());
    }

    @Test
    void shouldNameJavaPackagesAfterScopes()
    {
        final Model model = resolve("""
            scope core
            {
                struct A { int8 a; }
                scope stream
                {
                    struct Frame { int64 streamId; }
                }
            }
            """);

        final ScopeModel core = model.find("core::A").scope();
        assertEquals("core", core.qualifiedName());
        assertEquals("io.zilla.specs.core.types", core.packageName());
        final ScopeModel stream = model.find("core::stream::Frame").scope();
        assertEquals("core::stream", stream.qualifiedName());
        assertEquals("io.zilla.specs.core.types.stream", stream.packageName());
        assertEquals("FrameFW", model.find("core::stream::Frame").flyweightName());
        assertEquals("core::stream::Frame", model.find("core::stream::Frame").idlName());
    }

    @Test
    void shouldNameJavaPackagesWithCustomPrefix()
    {
        final Model model = Resolver.resolve(List.of(IdlParser.parse("t.idl", """
            scope core
            {
                struct A { int8 a; }
                scope stream
                {
                    struct Frame { int64 streamId; }
                }
            }
            """)), List.of(), "com.example.specs");

        assertEquals("com.example.specs.core.types", model.find("core::A").scope().packageName());
        assertEquals("com.example.specs.core.types.stream", model.find("core::stream::Frame").scope().packageName());
    }

    @Test
    void shouldGenerateOnlyOwnTypes()
    {
        final Model model = Resolver.resolve(
            List.of(IdlParser.parse("kafka.idl", """
                scope kafka
                {
                    struct KafkaBeginEx extends core::stream::Extension [0x01]
                    {
                        string16 topic;
                    }
                }
                """)),
            List.of(IdlParser.parse("core.jar!META-INF/zilla/idl/core.idl", """
                scope core
                {
                    scope stream
                    {
                        struct Extension { int32 typeId; }
                        struct Unused { octets rest; int8 notLast; }
                    }
                }
                """)),
            Resolver.DEFAULT_PACKAGE_PREFIX);

        assertEquals(List.of("core::stream::Extension", "core::stream::Unused", "kafka::KafkaBeginEx"), names(model.types()));
        assertEquals(List.of("kafka::KafkaBeginEx"), names(model.generated()));
        assertFalse(model.find("core::stream::Extension").isGenerated());
        assertTrue(model.find("kafka::KafkaBeginEx").isGenerated());
        final StructModel ex = struct(model, "kafka::KafkaBeginEx");
        assertSame(model.find("core::stream::Extension"), ex.supertype());
        assertEquals(List.of("typeId", "topic"), fieldNames(ex));
        assertEquals(new Position("core.jar!META-INF/zilla/idl/core.idl", 5, 28), ex.fields().get(0).position());
    }

    @Test
    void shouldNumberEnumConstants()
    {
        final Model model = resolve("""
            scope s
            {
                enum Color { RED, GREEN(5), BLUE }
                enum Wide (int64) { LOWEST(-9223372036854775808), HIGHEST(0x7fff_ffff_ffff_ffff) }
                enum Unsigned (uint32) { ZERO, TOP(0xffffffff) }
                enum Method (string8) { GET, CUSTOM("x-custom"), }
            }
            """);

        final EnumModel color = (EnumModel) model.find("s::Color");
        assertSame(Primitive.UINT8, color.underlying());
        assertTrue(color.isNumeric());
        assertEquals(List.of(
            new EnumConstant("RED", BigInteger.ZERO, null),
            new EnumConstant("GREEN", BigInteger.valueOf(5), null),
            new EnumConstant("BLUE", BigInteger.valueOf(6), null)), color.constants());
        assertEquals(BigInteger.valueOf(5), color.constant("GREEN").number());
        assertNull(color.constant("PURPLE"));

        final EnumModel wide = (EnumModel) model.find("s::Wide");
        assertSame(Primitive.INT64, wide.underlying());
        assertEquals(BigInteger.valueOf(Long.MIN_VALUE), wide.constant("LOWEST").number());
        assertEquals(BigInteger.valueOf(Long.MAX_VALUE), wide.constant("HIGHEST").number());

        final EnumModel unsigned = (EnumModel) model.find("s::Unsigned");
        assertEquals(BigInteger.valueOf(0xffff_ffffL), unsigned.constant("TOP").number());

        final EnumModel method = (EnumModel) model.find("s::Method");
        assertSame(StringKind.STRING8, method.underlying());
        assertFalse(method.isNumeric());
        assertEquals(List.of(new EnumConstant("GET", null, "GET"), new EnumConstant("CUSTOM", null, "x-custom")),
            method.constants());
    }

    @Test
    void shouldAcceptStringEnumValueThatJustFits()
    {
        final Model model = resolve("scope s\n{\n    enum E (string8) { X(\"" + "a".repeat(127) + "\") }\n}\n");

        assertEquals(127, ((EnumModel) model.find("s::E")).constant("X").text().length());
    }

    @Test
    void shouldResolveDefaults()
    {
        final Model model = resolve("""
            scope s
            {
                enum Color { RED, GREEN }
                struct Point { int8 x; }
                struct Defaults
                {
                    int8 small = -128;
                    uint32 big = 0xffffffff;
                    string8 greeting = "hi \\"you\\"";
                    string16 note = null;
                    Color color = GREEN;
                    array8<Point> points = null;
                    int32 length;
                    octets[length] data = null;
                    octets rest = null;
                }
            }
            """);

        final List<FieldModel> fields = struct(model, "s::Defaults").fields();
        assertEquals(DefaultValue.number(BigInteger.valueOf(-128)), fields.get(0).defaultValue());
        assertEquals(DefaultValue.number(BigInteger.valueOf(0xffff_ffffL)), fields.get(1).defaultValue());
        assertEquals(DefaultValue.string("hi \"you\""), fields.get(2).defaultValue());
        assertEquals(DefaultValue.nullValue(), fields.get(3).defaultValue());
        assertEquals(DefaultValue.Kind.CONSTANT, fields.get(4).defaultValue().kind());
        assertEquals(new EnumConstant("GREEN", BigInteger.ONE, null), fields.get(4).defaultValue().constant());
        assertTrue(fields.get(5).defaultValue().isNull());
        assertNull(fields.get(6).defaultValue());
        assertTrue(fields.get(7).defaultValue().isNull());
        assertTrue(fields.get(8).defaultValue().isNull());
    }

    @Test
    void shouldLinkSizeFields()
    {
        final Model model = resolve("""
            scope s
            {
                struct Base
                {
                    int16 count;
                }
                struct Blobs extends Base
                {
                    octets[4] fixed;
                    varint32 varLength;
                    octets[varLength] varSized;
                    octets[count] counted = null;
                    octets rest;
                }
            }
            """);

        final List<FieldModel> fields = struct(model, "s::Blobs").fields();
        final FieldModel count = fields.get(0);
        final FieldModel varLength = fields.get(2);
        final FieldModel varSized = fields.get(3);
        final FieldModel counted = fields.get(4);
        assertSame(varLength, varSized.sizeField());
        assertSame(varSized, varLength.sizedField());
        assertSame(count, counted.sizeField());
        assertTrue(((OctetsModel) counted.type()).isSized());
        assertEquals("count", ((OctetsModel) counted.type()).sizeField());
        assertTrue(((OctetsModel) fields.get(1).type()).isFixed());
        assertEquals(4, ((OctetsModel) fields.get(1).type()).fixedSize());
        assertSame(OctetsModel.TRAILING, fields.get(5).type());
        assertNull(fields.get(5).sizeField());
    }

    @Test
    void shouldResolveUnionOverInteger()
    {
        final Model model = resolve("""
            scope s
            {
                struct Circle { int32 radius; }
                union Shape switch (int16)
                {
                    case -1: Circle circle;
                    case 300: string16 label;
                    case 0x7fff: octets rest;
                }
            }
            """);

        final UnionModel shape = (UnionModel) model.find("s::Shape");
        assertSame(Primitive.INT16, shape.discriminator());
        assertNull(shape.supertype());
        assertTrue(shape.inheritedFields().isEmpty());
        assertEquals(List.of("circle", "label", "rest"), shape.cases().stream().map(CaseModel::name).toList());
        assertEquals(List.of(BigInteger.valueOf(-1), BigInteger.valueOf(300), BigInteger.valueOf(0x7fff)),
            shape.cases().stream().map(CaseModel::label).toList());
        assertSame(model.find("s::Circle"), shape.cases().get(0).type());
        assertNull(shape.cases().get(0).constant());
    }

    @Test
    void shouldResolveUnionOverEnumWithSupertype()
    {
        final Model model = resolve("""
            scope s
            {
                typedef Kind Alias;
                enum Kind (int16) { LOW(-5), HIGH }
                struct Base { int32 typeId; }
                union Condition switch (Alias) extends Base [0x10]
                {
                    case HIGH: int8 high;
                    case LOW: string8 low;
                }
            }
            """);

        final UnionModel condition = (UnionModel) model.find("s::Condition");
        assertSame(model.find("s::Kind"), condition.discriminator());
        assertSame(model.find("s::Base"), condition.supertype());
        assertEquals(List.of("typeId"), condition.inheritedFields().stream().map(FieldModel::name).toList());
        assertEquals(0x10L, condition.typeId());
        assertEquals(BigInteger.valueOf(-4), condition.cases().get(0).label());
        assertEquals("HIGH", condition.cases().get(0).constant().name());
        assertEquals(BigInteger.valueOf(-5), condition.cases().get(1).label());
    }

    @Test
    void shouldAcceptArraysOfNonEmptyBoundedItems()
    {
        final Model model = resolve("""
            scope s
            {
                enum Color { RED }
                enum Method (string8) { GET }
                struct Point { int8 x; }
                struct Empty { }
                union U switch (uint8) { case 1: Empty nothing; }
                struct Arrays
                {
                    array8<Point> points;
                    array16<string16> names;
                    array32<U> unions;
                    vararray<Color> colors;
                    vararray<Method> methods = null;
                }
            }
            """);

        final List<FieldModel> fields = struct(model, "s::Arrays").fields();
        assertEquals(List.of("array8<s::Point>", "array16<string16>", "array32<s::U>", "vararray<s::Color>",
            "vararray<s::Method>"), fields.stream().map(field -> field.type().idlName()).toList());
        assertSame(ArrayKind.VARARRAY, ((ArrayModel) fields.get(3).type()).kind());
    }

    @Test
    void shouldMergeScopesOfTheSameNameAcrossFiles()
    {
        final Model model = Resolver.resolve(List.of(
            IdlParser.parse("a.idl", "scope s\n{\n    struct A { int8 a; }\n}\n"),
            IdlParser.parse("b.idl", "scope s\n{\n    struct B { A a; }\n}\n")), List.of(), Resolver.DEFAULT_PACKAGE_PREFIX);

        assertSame(model.find("s::A"), struct(model, "s::B").fields().get(0).type());
        assertEquals(new Position("b.idl", 3, 5), model.find("s::B").position());
    }

    @Test
    void shouldMeasureSizes()
    {
        final Model model = resolve("""
            scope s
            {
                enum Color (uint16) { RED }
                struct Point { int32 x; Color color; }
                struct Tail { int8 a; octets rest; }
                struct Varying { varint64 v; string8 s; octets[2] pair; }
                union U switch (uint8) { case 1: Point point; case 2: int8 small; }
                union Open switch (uint8) { case 1: Tail tail; case 2: int8 small; }
            }
            """);

        assertTrue(Sizes.isInline(Primitive.UINT32));
        assertFalse(Sizes.isInline(Primitive.VARINT32));
        assertTrue(Sizes.isInline(model.find("s::Color")));
        assertEquals(2, Sizes.inlineSize(model.find("s::Color")));
        assertEquals(6, Sizes.minSize(model.find("s::Point")));
        assertEquals(1, Sizes.minSize(model.find("s::Tail")));
        assertEquals(1 + 1 + 2, Sizes.minSize(model.find("s::Varying")));
        assertEquals(1 + 1, Sizes.minSize(model.find("s::U")));
        assertTrue(Sizes.isUnbounded(model.find("s::Tail")));
        assertTrue(Sizes.isUnbounded(model.find("s::Open")));
        assertFalse(Sizes.isUnbounded(model.find("s::U")));
        assertFalse(Sizes.isUnbounded(model.find("s::Point")));
    }

    private static Model resolve(String text)
    {
        return Resolver.resolve(List.of(IdlParser.parse("t.idl", text)), List.of(), Resolver.DEFAULT_PACKAGE_PREFIX);
    }

    private static StructModel struct(Model model, String qualifiedName)
    {
        return assertInstanceOf(StructModel.class, model.find(qualifiedName), qualifiedName);
    }

    private static List<String> fieldNames(StructModel struct)
    {
        return struct.fields().stream().map(FieldModel::name).toList();
    }

    private static List<String> names(List<NamedModel> types)
    {
        return types.stream().map(NamedModel::qualifiedName).toList();
    }
}
