/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import java.util.List;

import io.zilla.specs.flyweight.plugin.model.ArrayModel;
import io.zilla.specs.flyweight.plugin.model.DefaultValue;
import io.zilla.specs.flyweight.plugin.model.EnumModel;
import io.zilla.specs.flyweight.plugin.model.OctetsModel;
import io.zilla.specs.flyweight.plugin.model.Primitive;
import io.zilla.specs.flyweight.plugin.model.Sizes;
import io.zilla.specs.flyweight.plugin.model.StringKind;
import io.zilla.specs.flyweight.plugin.model.Type;

/**
 * A field, a union's discriminator or one of its cases, as the generator lays it out: where it starts
 * relative to the value's offset or to the end of the last variable-size member before it.
 */
final class Member
{
    enum Kind
    {
        /** A fixed-size integer, read in place. */
        INTEGER,
        /** A numeric enum, read in place. */
        ENUM,
        VARINT,
        STRING,
        STRING_ENUM,
        OCTETS_FIXED,
        OCTETS_SIZED,
        OCTETS_TRAILING,
        /** A struct or a union. */
        NESTED,
        ARRAY
    }

    final String name;
    final Type type;
    final Kind kind;
    final boolean nativeOrder;
    final DefaultValue defaultValue;
    final String indexConstant;

    Member sizeField;
    Member sizedField;

    /** The variable-size member whose end this one is placed after, or null for the start of the value. */
    Member anchor;
    /** The bytes between the anchor and this member (only inline members come in between). */
    int delta;

    Member(String name, Type type, boolean nativeOrder, DefaultValue defaultValue, String indexConstant)
    {
        this.name = name;
        this.type = type;
        this.kind = kindOf(type);
        this.nativeOrder = nativeOrder;
        this.defaultValue = defaultValue;
        this.indexConstant = indexConstant;
    }

    boolean isInline()
    {
        return Sizes.isInline(type);
    }

    int inlineSize()
    {
        return Sizes.inlineSize(type);
    }

    /** The integer type a value is read and written as: the type itself, or a numeric enum's underlying type. */
    Primitive integer()
    {
        return type instanceof EnumModel enumeration ? (Primitive) enumeration.underlying() : (Primitive) type;
    }

    String ro()
    {
        return name + "RO";
    }

    String rw()
    {
        return name + "RW";
    }

    /** Where this member starts: during decode (from locals) or in an accessor (from the wrapped value). */
    String position(boolean decoding)
    {
        final String base = anchor == null ? (decoding ? "offset" : "offset()") : anchor.ro() + ".limit()";
        return delta == 0 ? base : base + " + " + delta;
    }

    /** Places each member after the last variable-size member before it. */
    static void layout(List<Member> members)
    {
        Member current = null;
        int delta = 0;
        for (Member member : members)
        {
            member.anchor = current;
            member.delta = delta;
            if (member.isInline())
            {
                delta += member.inlineSize();
            }
            else
            {
                current = member;
                delta = 0;
            }
        }
    }

    private static Kind kindOf(Type type)
    {
        final Kind kind;
        if (type instanceof Primitive primitive)
        {
            kind = primitive.isVarint() ? Kind.VARINT : Kind.INTEGER;
        }
        else if (type instanceof EnumModel enumeration)
        {
            kind = enumeration.isNumeric() ? Kind.ENUM : Kind.STRING_ENUM;
        }
        else if (type instanceof StringKind)
        {
            kind = Kind.STRING;
        }
        else if (type instanceof OctetsModel octets)
        {
            kind = octets.isFixed() ? Kind.OCTETS_FIXED : octets.isSized() ? Kind.OCTETS_SIZED : Kind.OCTETS_TRAILING;
        }
        else if (type instanceof ArrayModel)
        {
            kind = Kind.ARRAY;
        }
        else
        {
            kind = Kind.NESTED;
        }
        return kind;
    }
}
