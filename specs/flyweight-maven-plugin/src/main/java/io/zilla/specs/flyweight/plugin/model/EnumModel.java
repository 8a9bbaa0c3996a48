/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.flyweight.plugin.idl.Position;

/** An enum: numeric over a fixed-size integer, or string-valued over a string type. */
public final class EnumModel extends NamedModel
{
    private Type underlying;
    private final List<EnumConstant> constants = new ArrayList<>();

    public EnumModel(Position position, String name, ScopeModel scope, boolean generated)
    {
        super(position, name, scope, generated);
    }

    /** A fixed-size {@link Primitive} or a {@link StringKind}. */
    public Type underlying()
    {
        return underlying;
    }

    public boolean isNumeric()
    {
        return underlying instanceof Primitive;
    }

    public List<EnumConstant> constants()
    {
        return constants;
    }

    public EnumConstant constant(String name)
    {
        for (EnumConstant constant : constants)
        {
            if (constant.name().equals(name))
            {
                return constant;
            }
        }
        return null;
    }

    void underlying(Type underlying)
    {
        this.underlying = underlying;
    }
}
