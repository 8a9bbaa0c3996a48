/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import io.zilla.specs.flyweight.plugin.idl.Position;

/** A struct, union or enum: a named type that generates a flyweight class. */
public abstract sealed class NamedModel implements Type permits StructModel, UnionModel, EnumModel
{
    private final Position position;
    private final String name;
    private final ScopeModel scope;
    private final boolean generated;

    protected NamedModel(Position position, String name, ScopeModel scope, boolean generated)
    {
        this.position = position;
        this.name = name;
        this.scope = scope;
        this.generated = generated;
    }

    public final Position position()
    {
        return position;
    }

    public final String name()
    {
        return name;
    }

    public final ScopeModel scope()
    {
        return scope;
    }

    /** Whether this module generates it (false for types read from a dependency's IDL). */
    public final boolean isGenerated()
    {
        return generated;
    }

    public final String qualifiedName()
    {
        return scope.qualifiedName() + "::" + name;
    }

    /** The simple name of its flyweight class. */
    public final String flyweightName()
    {
        return name + "FW";
    }

    @Override
    public final String idlName()
    {
        return qualifiedName();
    }
}
