/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;

import io.zilla.specs.flyweight.plugin.idl.IdlParser;
import org.junit.jupiter.api.Test;

/**
 * IDL that parses and resolves but would generate Java that does not compile: names that become the same
 * Java name, or that clash with what the generator writes around them.
 */
class JavaNameClashTest
{
    @Test
    void shouldReserveEnumNamedBuilder()
    {
        assertErrors("scope s\n{\n    enum Builder { A }\n}\n", "file.idl:3:5: type name 'Builder' is reserved: the "
            + "generated class would clash with a class of java.lang, agrona or the flyweight runtime");
    }

    @Test
    void shouldRejectTypeNamesThatAreJavaKeywordsOrBuiltIns()
    {
        assertErrors("""
            scope s
            {
                enum int { A }
                struct int32 { }
                struct string8 { }
                struct octets { }
                struct vararray { }
            }
            """,
            "file.idl:3:5: type name 'int' is a Java keyword or a built-in IDL type",
            "file.idl:4:5: type name 'int32' is a Java keyword or a built-in IDL type",
            "file.idl:5:5: type name 'string8' is a Java keyword or a built-in IDL type",
            "file.idl:6:5: type name 'octets' is a Java keyword or a built-in IDL type",
            "file.idl:7:5: type name 'vararray' is a Java keyword or a built-in IDL type");
    }

    @Test
    void shouldReserveEnumConstantsThatClashWithEnumMembers()
    {
        assertErrors("scope s\n{\n    enum E { value, VALUES, encoded, OK }\n}\n",
            "file.idl:3:14: enum constant 'value' is reserved: it would clash with a member of the generated enum",
            "file.idl:3:21: enum constant 'VALUES' is reserved: it would clash with a member of the generated enum",
            "file.idl:3:29: enum constant 'encoded' is reserved: it would clash with a member of the generated enum");
    }

    @Test
    void shouldRejectFieldsThatMapToTheSameConstant()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 fooBar;
                    int32 foo_bar;
                }
            }
            """, "file.idl:6:9: 'foo_bar' and 'fooBar' both become the constant FIELD_FOO_BAR in AFW: rename one");
    }

    @Test
    void shouldRejectInheritedFieldThatMapsToTheSameConstant()
    {
        assertErrors("""
            scope s
            {
                struct A
                {
                    int32 fooBar;
                }
                struct B extends A
                {
                    int32 foo_bar;
                }
            }
            """, "file.idl:9:9: 'foo_bar' and 'fooBar' both become the constant FIELD_FOO_BAR in BFW: rename one");
    }

    @Test
    void shouldRejectCasesThatMapToTheSameConstant()
    {
        assertErrors("""
            scope s
            {
                union U switch (uint8)
                {
                    case 1: int32 myCase;
                    case 2: int64 my_case;
                }
            }
            """, "file.idl:6:9: 'my_case' and 'myCase' both become the constant KIND_MY_CASE in UFW: rename one");
    }

    @Test
    void shouldRejectFieldNamedLikeAnArrayItemSetter()
    {
        assertErrors("""
            scope s
            {
                struct P { int32 x; }
                struct A
                {
                    array8<P> points;
                    int32 pointsItem;
                }
            }
            """, "file.idl:7:9: 'pointsItem' has the name of the builder method that appends to array 'points': rename it");
    }

    @Test
    void shouldRejectTypesThatGenerateTheSameClass()
    {
        assertErrors("""
            scope s
            {
                struct Foo { }
                enum FooFW { A }
            }
            """, "file.idl:4:5: FooFW and Foo (at file.idl:3:5) would both generate the class FooFW");
    }

    private static void assertErrors(String text, String... expected)
    {
        final IdlErrors ex = assertThrows(IdlErrors.class, () -> Resolver.resolve(List.of(IdlParser.parse("file.idl", text)),
            List.of(), Resolver.DEFAULT_PACKAGE_PREFIX));

        assertEquals(List.of(expected), ex.errors());
    }
}
