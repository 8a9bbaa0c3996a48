/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

import java.math.BigInteger;
import java.util.List;

/** The syntax tree of an IDL file, as written: names are not resolved yet. */
public final class Ast
{
    private Ast()
    {
    }

    public record File(String name, List<Scope> scopes)
    {
    }

    /** A scope: a namespace (a Java package) with an optional byte order, nested scopes and definitions. */
    public record Scope(Position position, String name, ByteOrderOption byteOrder, List<Scope> scopes,
        List<Definition> definitions)
    {
    }

    public record ByteOrderOption(Position position, String value)
    {
    }

    public sealed interface Definition permits Struct, Union, Enum, Typedef
    {
        Position position();

        String name();
    }

    public record Struct(Position position, String name, TypeRef supertype, Literal typeId, List<Field> fields)
        implements Definition
    {
    }

    public record Union(Position position, String name, TypeRef discriminator, TypeRef supertype, Literal typeId,
        List<Case> cases) implements Definition
    {
    }

    public record Enum(Position position, String name, TypeRef underlying, List<Constant> constants) implements Definition
    {
    }

    public record Typedef(Position position, TypeRef type, String name) implements Definition
    {
    }

    public record Field(Position position, TypeRef type, String name, Literal defaultValue)
    {
    }

    public record Case(Position position, Literal label, TypeRef type, String name)
    {
    }

    public record Constant(Position position, String name, Literal value)
    {
    }

    /** A type as written: a built-in or a (possibly {@code ::}-qualified) name, sized octets, or an array. */
    public sealed interface TypeRef permits NamedType, OctetsType, ArrayType
    {
        Position position();
    }

    public record NamedType(Position position, String name) implements TypeRef
    {
    }

    /** {@code octets} (trailing), {@code octets[n]} (fixedSize) or {@code octets[field]} (sizeField). */
    public record OctetsType(Position position, Literal fixedSize, String sizeField) implements TypeRef
    {
    }

    /** {@code array8<T>}, {@code array16<T>}, {@code array32<T>} or {@code vararray<T>}. */
    public record ArrayType(Position position, String kind, TypeRef item) implements TypeRef
    {
    }

    public record Literal(Position position, LiteralKind kind, String text, BigInteger number)
    {
        @Override
        public String toString()
        {
            return kind == LiteralKind.STRING ? '"' + text + '"' : text;
        }
    }

    public enum LiteralKind
    {
        NUMBER,
        STRING,
        NULL,
        IDENTIFIER
    }
}
