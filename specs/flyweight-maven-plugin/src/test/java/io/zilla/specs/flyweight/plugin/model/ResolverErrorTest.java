/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import io.zilla.specs.flyweight.plugin.idl.IdlParser;
import org.junit.jupiter.api.Test;

/** Each rule of the resolver, broken on its own: the error names the place and the problem. */
class ResolverErrorTest
{
    @Test
    void shouldReportEveryIndependentErrorTogether()
    {
        final IdlErrors ex = assertThrows(IdlErrors.class, () -> resolve("""
            scope s
            {
                struct A
                {
                    Missing m;
                    int32 x = "text";
                    int32 limit;
                }
                enum E { X(1), Y(1) }
                union U switch (varint32)
                {
                    case 1: int8 a;
                }
                struct A
                {
                }
                struct T [0x100000000]
                {
                }
            }
            """));

        assertEquals(List.of(
            "file.idl:5:9: unknown type 'Missing'",
            "file.idl:6:19: default \"text\" is not a value of int32",
            "file.idl:7:9: field name 'limit' is reserved: it would hide a flyweight method",
            "file.idl:9:20: enum E already has a constant with the value of Y",
            "file.idl:10:21: a union switches on int8, int16, int32, uint8, uint16 or a numeric enum over one of those, "
                + "not varint32",
            "file.idl:14:5: 'A' is already defined in scope 's' at file.idl:3:5",
            "file.idl:17:15: type id 0x100000000 does not fit in 32 bits"), ex.errors());
        assertEquals("7 errors in IDL:\n  " + String.join("\n  ", ex.errors()), ex.getMessage());
    }

    @Test
    void shouldReportErrorsOfSeveralFilesTogether()
    {
        final IdlErrors ex = assertThrows(IdlErrors.class, () -> Resolver.resolve(List.of(
            IdlParser.parse("a.idl", "scope a\n{\n    struct A { Nope n; }\n}\n"),
            IdlParser.parse("b.idl", "scope b\n{\n    enum E (varint32) { X }\n}\n")),
            List.of(), Resolver.DEFAULT_PACKAGE_PREFIX));

        assertEquals(List.of(
            "a.idl:3:16: unknown type 'Nope'",
            "b.idl:3:13: an enum is over a fixed-size integer or a string type, not varint32"), ex.errors());
    }

    @Test
    void shouldSaySingleError()
    {
        final IdlErrors ex = assertThrows(IdlErrors.class, () -> resolve("scope s\n{\n    typedef Nope Alias;\n}\n"));

        assertEquals("1 error in IDL:\n  file.idl:3:13: unknown type 'Nope'", ex.getMessage());
    }

    // names

    @Test
    void shouldReportUnknownType()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    Missing m;
                }
            }
            """, "file.idl:5:9: unknown type 'Missing'");
    }

    @Test
    void shouldReportUnknownQualifiedType()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int8 x;
                }
                struct B
                {
                    t::A a;
                }
            }
            """, "file.idl:9:9: unknown type 't::A'");
    }

    @Test
    void shouldReportUnknownArrayItemType()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    array8<Nope> xs;
                }
            }
            """, "file.idl:5:16: unknown type 'Nope'");
    }

    @Test
    void shouldReportDuplicateDefinition()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                }
                enum A { X }
            }
            """, "file.idl:6:5: 'A' is already defined in scope 's' at file.idl:3:5");
    }

    @Test
    void shouldReportDefinitionThatRedefinesDependencyType()
    {
        final IdlErrors ex = assertThrows(IdlErrors.class, () -> Resolver.resolve(
            List.of(IdlParser.parse("own.idl", "scope core\n{\n    typedef int8 Id;\n}\n")),
            List.of(IdlParser.parse("dep.idl", "scope core\n{\n    struct Id { int32 value; }\n}\n")),
            Resolver.DEFAULT_PACKAGE_PREFIX));

        assertEquals(List.of("own.idl:3:5: 'Id' is already defined in scope 'core' at dep.idl:3:5"), ex.errors());
    }

    @Test
    void shouldReportDuplicateField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 x;
                    int64 x;
                }
            }
            """, "file.idl:6:9: field 'x' is already defined at file.idl:5:9");
    }

    @Test
    void shouldReportFieldClashingWithInheritedField()
    {
        assertErrors("""
            scope s
            {
                struct Base
                {
                    int32 x;
                }
                struct A extends Base
                {
                    int64 x;
                }
            }
            """, "file.idl:9:9: field 'x' is already defined at file.idl:5:9");
    }

    // extends and cycles

    @Test
    void shouldReportExtendingEnum()
    {
        assertErrors("""
            scope s
            {
                enum E { X }
                struct A extends E
                {
                }
            }
            """, "file.idl:4:22: A can only extend a struct, not s::E");
    }

    @Test
    void shouldReportExtendingUnion()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8) { case 1: int8 a; }
                struct A extends U
                {
                }
            }
            """, "file.idl:4:22: A can only extend a struct, not s::U");
    }

    @Test
    void shouldReportExtendingPrimitive()
    {
        assertErrors("""
            scope s
            {
                struct A extends int32
                {
                }
            }
            """, "file.idl:3:22: A can only extend a struct, not int32");
    }

    @Test
    void shouldReportUnionExtendingNonStruct()
    {
        assertErrors("""
            scope s
            {
                enum E { X }
                union U switch (uint8) extends E
                {
                    case 1: int8 a;
                }
            }
            """, "file.idl:4:36: U can only extend a struct, not s::E");
    }

    @Test
    void shouldReportExtendsCycle()
    {
        assertErrors("""
            scope s
            {
                struct A extends B
                {
                }
                struct B extends A
                {
                }
            }
            """, "file.idl:6:22: B extends itself through s::A");
    }

    @Test
    void shouldReportStructExtendingItself()
    {
        assertErrors("""
            scope s
            {
                struct A extends A
                {
                }
            }
            """, "file.idl:3:22: A extends itself through s::A");
    }

    @Test
    void shouldReportTypedefCycle()
    {
        assertErrors("""
            scope s
            {
                typedef B A;
                typedef A B;
            }
            """, "file.idl:3:5: typedef A refers to itself");
    }

    @Test
    void shouldReportTypedefOfItself()
    {
        assertErrors("""
            scope s
            {
                typedef A A;
            }
            """, "file.idl:3:5: typedef A refers to itself");
    }

    @Test
    void shouldReportStructContainingItself()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 x;
                    A a;
                }
            }
            """, "file.idl:3:5: A contains itself (A -> A)");
    }

    @Test
    void shouldReportStructContainingItselfThroughArray()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 x;
                    array8<A> children;
                }
            }
            """, "file.idl:3:5: A contains itself (A -> A)");
    }

    @Test
    void shouldReportStructContainingItselfThroughAnotherStruct()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    B b;
                }
                struct B
                {
                    int8 y;
                    A a;
                }
            }
            """, "file.idl:3:5: A contains itself (A -> B -> A)");
    }

    @Test
    void shouldReportStructContainingItselfThroughUnion()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int8 x;
                    U u;
                }
                union U switch (uint8) { case 1: A a; }
            }
            """, "file.idl:3:5: A contains itself (A -> U -> A)");
    }

    // octets

    @Test
    void shouldReportMissingSizeField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    octets[len] data;
                }
            }
            """, "file.idl:5:9: octets[len] needs an integer field 'len' before it");
    }

    @Test
    void shouldReportSizeFieldDeclaredLater()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    octets[len] data;
                    int32 len;
                }
            }
            """, "file.idl:5:9: octets[len] needs an integer field 'len' before it");
    }

    @Test
    void shouldReportNonIntegerSizeField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    string8 len;
                    octets[len] data;
                }
            }
            """, "file.idl:6:9: octets[len] needs an integer size field, but 'len' is string8");
    }

    @Test
    void shouldReportEnumSizeField()
    {
        assertErrors("""
            scope s
            {
                enum E { X }
                struct A
                {
                    E len;
                    octets[len] data;
                }
            }
            """, "file.idl:7:9: octets[len] needs an integer size field, but 'len' is s::E");
    }

    @Test
    void shouldReportSizeFieldUsedTwice()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 len;
                    octets[len] a;
                    octets[len] b;
                }
            }
            """, "file.idl:7:9: 'len' is already the size of 'a'");
    }

    @Test
    void shouldReportSizeFieldWithDefault()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 len = 0;
                    octets[len] data;
                }
            }
            """, "file.idl:5:9: 'len' is the size of 'data' and is set with it: it cannot have a default");
    }

    @Test
    void shouldReportVarintSizeFieldNotRightBefore()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    varint32 len;
                    int8 gap;
                    octets[len] data;
                }
            }
            """, "file.idl:7:9: octets[len] must come right after its varint size field");
    }

    @Test
    void shouldReportNullDefaultWithUnsignedSizeField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    uint16 len;
                    octets[len] data = null;
                }
            }
            """, "file.idl:6:9: 'data = null' needs a signed size field to hold -1, but 'len' is uint16");
    }

    @Test
    void shouldReportNullDefaultWithUnsignedVarintSizeField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    varuint32 len;
                    octets[len] data = null;
                }
            }
            """, "file.idl:6:9: 'data = null' needs a signed size field to hold -1, but 'len' is varuint32");
    }

    @Test
    void shouldReportTrailingOctetsNotLast()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    octets rest;
                    int32 x;
                }
            }
            """, "file.idl:5:9: 'rest' (octets) takes the rest of the bytes, so it must be the last field of A");
    }

    @Test
    void shouldReportUnboundedStructNotLast()
    {
        assertErrors("""
            scope s
            {
                struct T
                {
                    int8 a;
                    octets rest;
                }
                struct A
                {
                    T t;
                    int32 x;
                }
            }
            """, "file.idl:10:9: 't' (s::T) takes the rest of the bytes, so it must be the last field of A");
    }

    @Test
    void shouldReportUnionWithUnboundedInheritedField()
    {
        assertErrors("""
            scope s
            {
                struct Base
                {
                    octets rest;
                }
                union U switch (uint8) extends Base
                {
                    case 1: int8 a;
                }
            }
            """, "file.idl:5:9: 'rest' (octets) takes the rest of the bytes, so it must be the last field of U");
    }

    @Test
    void shouldReportFixedOctetsLargerThanJavaArray()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    octets[0x100000000] x;
                }
            }
            """, "file.idl:5:16: octets[4294967296] is larger than a Java array");
    }

    @Test
    void shouldReportTypedefOfSizedOctets()
    {
        assertErrors("""
            scope s
            {
                typedef octets[len] Blob;
            }
            """, "file.idl:3:13: a typedef cannot be octets[field]: the field belongs to a struct");
    }

    // unions

    @Test
    void shouldReportVarintDiscriminator()
    {
        assertDiscriminatorError("varint32", "varint32");
    }

    @Test
    void shouldReportStringDiscriminator()
    {
        assertDiscriminatorError("string8", "string8");
    }

    @Test
    void shouldReportInt64Discriminator()
    {
        assertDiscriminatorError("int64", "int64");
    }

    @Test
    void shouldReportUint32Discriminator()
    {
        assertDiscriminatorError("uint32", "uint32");
    }

    @Test
    void shouldReportStringEnumDiscriminator()
    {
        assertErrors("""
            scope s
            {
                enum M (string8) { GET }
                union U switch (M)
                {
                    case GET: int8 a;
                }
            }
            """, "file.idl:4:21: a union switches on int8, int16, int32, uint8, uint16 or a numeric enum over one of those, "
            + "not s::M");
    }

    @Test
    void shouldReportInt64EnumDiscriminator()
    {
        assertErrors("""
            scope s
            {
                enum W (int64) { A }
                union U switch (W)
                {
                    case A: int8 a;
                }
            }
            """, "file.idl:4:21: a union switches on int8, int16, int32, uint8, uint16 or a numeric enum over one of those, "
            + "not s::W");
    }

    @Test
    void shouldReportStructDiscriminator()
    {
        assertErrors("""
            scope s
            {
                struct P { int8 x; }
                union U switch (P)
                {
                    case 1: int8 a;
                }
            }
            """, "file.idl:4:21: a union switches on int8, int16, int32, uint8, uint16 or a numeric enum over one of those, "
            + "not s::P");
    }

    @Test
    void shouldReportDuplicateCaseLabel()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8)
                {
                    case 1: int8 a;
                    case 1: int16 b;
                }
            }
            """, "file.idl:6:14: case 1 is already used");
    }

    @Test
    void shouldReportDuplicateEnumCaseLabel()
    {
        assertErrors("""
            scope s
            {
                enum E { X, Y }
                union U switch (E)
                {
                    case X: int8 a;
                    case X: int16 b;
                }
            }
            """, "file.idl:7:14: case X is already used");
    }

    @Test
    void shouldReportCaseLabelOutOfRange()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8)
                {
                    case 256: int8 a;
                }
            }
            """, "file.idl:5:14: case 256 is not a value of uint8");
    }

    @Test
    void shouldReportNegativeCaseLabelOfUnsignedDiscriminator()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint16)
                {
                    case -1: int8 a;
                }
            }
            """, "file.idl:5:14: case -1 is not a value of uint16");
    }

    @Test
    void shouldReportCaseLabelOutOfSignedRange()
    {
        assertErrors("""
            scope s
            {
                union U switch (int8)
                {
                    case 128: int8 a;
                }
            }
            """, "file.idl:5:14: case 128 is not a value of int8");
    }

    @Test
    void shouldReportCaseLabelThatIsNotEnumConstant()
    {
        assertErrors("""
            scope s
            {
                enum E { X, Y }
                union U switch (E)
                {
                    case Z: int8 a;
                }
            }
            """, "file.idl:6:14: case Z is not a constant of s::E");
    }

    @Test
    void shouldReportNumericCaseLabelOfEnumDiscriminator()
    {
        assertErrors("""
            scope s
            {
                enum E { X, Y }
                union U switch (E)
                {
                    case 0: int8 a;
                }
            }
            """, "file.idl:6:14: case 0 is not a constant of s::E");
    }

    @Test
    void shouldReportNamedCaseLabelOfIntegerDiscriminator()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8)
                {
                    case X: int8 a;
                }
            }
            """, "file.idl:5:14: case X is not a value of uint8");
    }

    @Test
    void shouldReportArrayCase()
    {
        assertErrors("""
            scope s
            {
                struct P { int8 x; }
                union U switch (uint8)
                {
                    case 1: array8<P> a;
                }
            }
            """, "file.idl:6:17: a union case cannot be an array: wrap it in a struct");
    }

    @Test
    void shouldReportSizedOctetsCase()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8)
                {
                    case 1: octets[len] a;
                }
            }
            """, "file.idl:5:17: a union case cannot be octets[field]: it has no fields to size it; use a struct");
    }

    @Test
    void shouldReportDuplicateCaseName()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8)
                {
                    case 1: int8 a;
                    case 2: int16 a;
                }
            }
            """, "file.idl:6:9: case name 'a' is already used");
    }

    @Test
    void shouldReportCaseNamedKind()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8)
                {
                    case 1: int8 kind;
                }
            }
            """, "file.idl:5:9: case name 'kind' is reserved for the discriminator");
    }

    @Test
    void shouldReportCaseNamedLikeInheritedField()
    {
        assertErrors("""
            scope s
            {
                struct B { int8 a; }
                union U switch (uint8) extends B
                {
                    case 1: int8 a;
                }
            }
            """, "file.idl:6:9: case 'a' has the name of inherited field at file.idl:3:16");
    }

    @Test
    void shouldReportInheritedFieldNamedKind()
    {
        assertErrors("""
            scope s
            {
                struct B { int8 kind; }
                union U switch (uint8) extends B
                {
                    case 1: int8 a;
                }
            }
            """, "file.idl:4:5: union U inherits a field named 'kind', which would hide the discriminator's accessor");
    }

    @Test
    void shouldReportUnionWithoutCases()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8)
                {
                }
            }
            """, "file.idl:3:5: union U has no cases");
    }

    // enums

    @Test
    void shouldReportEnumOverVarint()
    {
        assertErrors("""
            scope s
            {
                enum E (varint32) { X }
            }
            """, "file.idl:3:13: an enum is over a fixed-size integer or a string type, not varint32");
    }

    @Test
    void shouldReportEnumOverStruct()
    {
        assertErrors("""
            scope s
            {
                struct P { int8 x; }
                enum E (P) { X }
            }
            """, "file.idl:4:13: an enum is over a fixed-size integer or a string type, not s::P");
    }

    @Test
    void shouldReportEnumOverOctets()
    {
        assertErrors("""
            scope s
            {
                enum E (octets[2]) { X }
            }
            """, "file.idl:3:13: an enum is over a fixed-size integer or a string type, not octets[2]");
    }

    @Test
    void shouldReportDuplicateEnumValue()
    {
        assertErrors("""
            scope s
            {
                enum E { X(1), Y(1) }
            }
            """, "file.idl:3:20: enum E already has a constant with the value of Y");
    }

    @Test
    void shouldReportDuplicateImplicitEnumValue()
    {
        assertErrors("""
            scope s
            {
                enum E { X(1), Y(0), Z }
            }
            """, "file.idl:3:26: enum E already has a constant with the value of Z");
    }

    @Test
    void shouldReportDuplicateStringEnumValue()
    {
        assertErrors("""
            scope s
            {
                enum E (string8) { X("Y"), Y }
            }
            """, "file.idl:3:32: enum E already has a constant with the value of Y");
    }

    @Test
    void shouldReportDuplicateEnumName()
    {
        assertErrors("""
            scope s
            {
                enum E { X, X }
            }
            """, "file.idl:3:17: enum constant 'X' is already defined");
    }

    @Test
    void shouldReportEnumValueOutOfRange()
    {
        assertErrors("""
            scope s
            {
                enum E { X(256) }
            }
            """, "file.idl:3:16: the value 256 of X is out of range for uint8");
    }

    @Test
    void shouldReportImplicitEnumValueOutOfRange()
    {
        assertErrors("""
            scope s
            {
                enum E { X(255), Y }
            }
            """, "file.idl:3:22: the value 256 of Y is out of range for uint8");
    }

    @Test
    void shouldReportNegativeValueOfUnsignedEnum()
    {
        assertErrors("""
            scope s
            {
                enum E (uint16) { X(-1) }
            }
            """, "file.idl:3:25: the value -1 of X is out of range for uint16");
    }

    @Test
    void shouldReportStringEnumValueTooLong()
    {
        assertErrors("scope s\n{\n    enum E (string8) { X(\"" + "a".repeat(128) + "\") }\n}\n",
            "file.idl:3:26: the value of X is longer than the 127 bytes of string8");
    }

    @Test
    void shouldMeasureStringEnumValueInUtf8Bytes()
    {
        assertErrors("scope s\n{\n    enum E (string8) { X(\"" + "é".repeat(64) + "\") }\n}\n",
            "file.idl:3:26: the value of X is longer than the 127 bytes of string8");
    }

    @Test
    void shouldReportNumberValueOfStringEnum()
    {
        assertErrors("""
            scope s
            {
                enum E (string8) { X(1) }
            }
            """, "file.idl:3:26: the value of X must be a string");
    }

    @Test
    void shouldReportStringValueOfNumericEnum()
    {
        assertErrors("""
            scope s
            {
                enum E { X("a") }
            }
            """, "file.idl:3:16: the value of X must be a number");
    }

    @Test
    void shouldReportEnumConstantThatIsJavaKeyword()
    {
        assertErrors("""
            scope s
            {
                enum E { class, X }
            }
            """, "file.idl:3:14: enum constant 'class' is a Java keyword");
    }

    // defaults

    @Test
    void shouldReportDefaultOutOfRange()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    uint8 x = 256;
                }
            }
            """, "file.idl:5:19: default 256 is not a value of uint8");
    }

    @Test
    void shouldReportNegativeDefaultOfUnsignedField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    uint32 x = -1;
                }
            }
            """, "file.idl:5:20: default -1 is not a value of uint32");
    }

    @Test
    void shouldReportStringDefaultOfIntegerField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 x = "1";
                }
            }
            """, "file.idl:5:19: default \"1\" is not a value of int32");
    }

    @Test
    void shouldReportNullDefaultOfIntegerField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 x = null;
                }
            }
            """, "file.idl:5:19: default null is not a value of int32");
    }

    @Test
    void shouldReportNameDefaultOfIntegerField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 x = FOO;
                }
            }
            """, "file.idl:5:19: default FOO is not a value of int32");
    }

    @Test
    void shouldReportNumberDefaultOfStringField()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    string8 x = 1;
                }
            }
            """, "file.idl:5:21: default 1 is not a value of string8");
    }

    @Test
    void shouldReportUnknownEnumConstantDefault()
    {
        assertErrors("""
            scope s
            {
                enum E { X }
                struct A
                {
                    E e = Y;
                }
            }
            """, "file.idl:6:15: default Y is not a value of s::E");
    }

    @Test
    void shouldReportNumberDefaultOfEnumField()
    {
        assertErrors("""
            scope s
            {
                enum E { X }
                struct A
                {
                    E e = 0;
                }
            }
            """, "file.idl:6:15: default 0 is not a value of s::E");
    }

    @Test
    void shouldReportNullDefaultOfStructField()
    {
        assertErrors("""
            scope s
            {
                struct P { int8 x; }
                struct A
                {
                    P p = null;
                }
            }
            """, "file.idl:6:15: default null is not a value of s::P");
    }

    @Test
    void shouldReportNullDefaultOfFixedOctets()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    octets[4] x = null;
                }
            }
            """, "file.idl:5:23: default null is not a value of octets[4]");
    }

    @Test
    void shouldReportStringDefaultTooLong()
    {
        final String text = "a".repeat(128);
        assertErrors("scope s\n{\n    struct A\n    {\n        string8 x = \"" + text + "\";\n    }\n}\n",
            "file.idl:5:21: default \"" + text + "\" is longer than the 127 bytes of string8");
    }

    // arrays

    @Test
    void shouldReportArrayOfPrimitives()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    array8<int32> xs;
                }
            }
            """, "file.idl:5:9: array items are structs, unions, enums or strings, not int32: wrap it in a struct");
    }

    @Test
    void shouldReportArrayOfTypedefPrimitives()
    {
        assertErrors("""
            scope s
            {
                typedef int32 Id;
                struct A
                {
                    array8<Id> xs;
                }
            }
            """, "file.idl:6:9: array items are structs, unions, enums or strings, not int32: wrap it in a struct");
    }

    @Test
    void shouldReportArrayOfOctets()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    array16<octets[4]> xs;
                }
            }
            """, "file.idl:5:9: array items are structs, unions, enums or strings, not octets[4]: wrap it in a struct");
    }

    @Test
    void shouldReportArrayOfArrays()
    {
        assertErrors("""
            scope s
            {
                struct P { int8 x; }
                struct A
                {
                    array32<array8<P>> xs;
                }
            }
            """, "file.idl:6:9: array items are structs, unions, enums or strings, not array8<s::P>: wrap it in a struct");
    }

    @Test
    void shouldReportArrayOfItemsThatCanBeEmpty()
    {
        assertErrors("""
            scope s
            {
                struct P { }
                struct A
                {
                    vararray<P> xs;
                }
            }
            """, "file.idl:6:9: array items must take at least one byte, but s::P can be empty");
    }

    @Test
    void shouldReportArrayOfUnboundedItems()
    {
        assertErrors("""
            scope s
            {
                struct P { int8 x; octets rest; }
                struct A
                {
                    vararray<P> xs;
                }
            }
            """, "file.idl:6:9: array items cannot take the rest of the bytes, as s::P does");
    }

    // type ids

    @Test
    void shouldReportTypeIdAbove32Bits()
    {
        assertErrors("""
            scope s
            {
                struct A [0x100000000]
                {
                }
            }
            """, "file.idl:3:15: type id 0x100000000 does not fit in 32 bits");
    }

    @Test
    void shouldReportTypeIdBelow32Bits()
    {
        assertErrors("""
            scope s
            {
                struct A [-2147483649]
                {
                }
            }
            """, "file.idl:3:15: type id -2147483649 does not fit in 32 bits");
    }

    @Test
    void shouldReportUnionTypeIdAbove32Bits()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8) [0x1ffffffff] { case 1: int8 a; }
            }
            """, "file.idl:3:29: type id 0x1ffffffff does not fit in 32 bits");
    }

    // Java names

    @Test
    void shouldReportFieldNamedLikeJavaKeyword()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 class;
                }
            }
            """, "file.idl:5:9: field name 'class' is a Java keyword");
    }

    @Test
    void shouldReportFieldNamedLikeJavaPrimitive()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 native;
                    int32 int;
                }
            }
            """, "file.idl:5:9: field name 'native' is a Java keyword", "file.idl:6:9: field name 'int' is a Java keyword");
    }

    @Test
    void shouldReportFieldNamedLimit()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 limit;
                }
            }
            """, "file.idl:5:9: field name 'limit' is reserved: it would hide a flyweight method");
    }

    @Test
    void shouldReportFieldNamedWrap()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 wrap;
                }
            }
            """, "file.idl:5:9: field name 'wrap' is reserved: it would hide a flyweight method");
    }

    @Test
    void shouldReportFieldNamedLikeGeneratedConstant()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 FIELD_X;
                    int32 KIND_Y;
                }
            }
            """, "file.idl:5:9: field name 'FIELD_X' is reserved for generated constants",
            "file.idl:6:9: field name 'KIND_Y' is reserved for generated constants");
    }

    @Test
    void shouldReportCaseNamedLikeFlyweightMethod()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8) { case 1: int8 offset; }
            }
            """, "file.idl:3:30: case name 'offset' is reserved: it would hide a flyweight method");
    }

    @Test
    void shouldReportStructNamedOctets()
    {
        assertErrors("""
            scope s
            {
                struct Octets
                {
                }
            }
            """, "file.idl:3:5: type name 'Octets' is reserved: the generated class would clash with a class of java.lang, "
            + "agrona or the flyweight runtime");
    }

    @Test
    void shouldReportEnumNamedString()
    {
        assertErrors("""
            scope s
            {
                enum String { X }
            }
            """, "file.idl:3:5: type name 'String' is reserved: the generated class would clash with a class of java.lang, "
            + "agrona or the flyweight runtime");
    }

    @Test
    void shouldReportEnumNamedLikeAgronaClass()
    {
        assertErrors("""
            scope s
            {
                enum DirectBuffer { X }
            }
            """, "file.idl:3:5: type name 'DirectBuffer' is reserved: the generated class would clash with a class of "
            + "java.lang, agrona or the flyweight runtime");
    }

    @Test
    void shouldReportCapitalizedScopeName()
    {
        assertErrors("""
            scope Core
            {
            }
            """, "file.idl:1:1: scope name 'Core' must be lower case letters, digits and '_', and not a Java keyword: "
            + "it names a Java package");
    }

    @Test
    void shouldReportScopeNamedLikeJavaKeyword()
    {
        assertErrors("""
            scope native
            {
            }
            """, "file.idl:1:1: scope name 'native' must be lower case letters, digits and '_', and not a Java keyword: "
            + "it names a Java package");
    }

    @Test
    void shouldReportBadNestedScopeName()
    {
        assertErrors("""
            scope s
            {
                scope _x
                {
                }
            }
            """, "file.idl:3:5: scope name '_x' must be lower case letters, digits and '_', and not a Java keyword: "
            + "it names a Java package");
    }

    private static void assertDiscriminatorError(String discriminator, String name)
    {
        final String text = "scope s\n{\n    union U switch (" + discriminator + ")\n    {\n        case 1: int8 a;\n    }\n}\n";
        assertErrors(text, "file.idl:3:21: a union switches on int8, int16, int32, uint8, uint16 or a numeric enum over one of "
            + "those, not " + name);
    }

    private static void assertErrors(String text, String... expected)
    {
        final IdlErrors ex = assertThrows(IdlErrors.class, () -> resolve(text));

        assertEquals(List.of(expected), ex.errors());
    }

    private static Model resolve(String text)
    {
        return Resolver.resolve(List.of(IdlParser.parse("file.idl", text)), List.of(), Resolver.DEFAULT_PACKAGE_PREFIX);
    }
}
