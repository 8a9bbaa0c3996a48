/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

/**
 * What the generator needs to know of a type's size. Only call these on a model the {@link Resolver}
 * accepted: it has refused types that contain themselves.
 */
public final class Sizes
{
    private Sizes()
    {
    }

    /** Whether the type is a fixed-size integer read in place (an integer, or a numeric enum). */
    public static boolean isInline(Type type)
    {
        return type instanceof Primitive primitive && !primitive.isVarint()
            || type instanceof EnumModel enumeration && enumeration.isNumeric();
    }

    /** The size of an inline type. */
    public static int inlineSize(Type type)
    {
        return type instanceof EnumModel enumeration
            ? ((Primitive) enumeration.underlying()).size()
            : ((Primitive) type).size();
    }

    /** The fewest bytes a value of the type takes. */
    public static int minSize(Type type)
    {
        final int size;
        if (type == null)
        {
            // a part the resolver has already reported as broken (an enum without a valid underlying type, a union
            // without a valid discriminator): counted as empty so that the layout checks can still run
            size = 0;
        }
        else if (type instanceof Primitive primitive)
        {
            size = primitive.isVarint() ? 1 : primitive.size();
        }
        else if (type instanceof StringKind string)
        {
            size = string.minSize();
        }
        else if (type instanceof OctetsModel octets)
        {
            size = Math.max(octets.fixedSize(), 0);
        }
        else if (type instanceof ArrayModel array)
        {
            size = array.kind().minSize();
        }
        else if (type instanceof EnumModel enumeration)
        {
            size = minSize(enumeration.underlying());
        }
        else if (type instanceof StructModel struct)
        {
            size = struct.fields().stream().mapToInt(field -> minSize(field.type())).sum();
        }
        else
        {
            final UnionModel union = (UnionModel) type;
            size = union.inheritedFields().stream().mapToInt(field -> minSize(field.type())).sum()
                + minSize(union.discriminator())
                + union.cases().stream().mapToInt(c -> minSize(c.type())).min().orElse(0);
        }
        return size;
    }

    /**
     * Whether the type takes all the bytes left to its maxLimit (a trailing {@code octets}, or a struct or
     * union that ends with one): it can only come last.
     */
    public static boolean isUnbounded(Type type)
    {
        final boolean unbounded;
        if (type instanceof OctetsModel octets)
        {
            unbounded = octets.isTrailing();
        }
        else if (type instanceof StructModel struct)
        {
            unbounded = !struct.fields().isEmpty() && isUnbounded(struct.fields().get(struct.fields().size() - 1).type());
        }
        else if (type instanceof UnionModel union)
        {
            unbounded = union.cases().stream().anyMatch(c -> isUnbounded(c.type()));
        }
        else
        {
            unbounded = false;
        }
        return unbounded;
    }
}
