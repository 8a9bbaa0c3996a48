/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.flyweight.plugin.idl.Position;

/**
 * A union: the fields of its supertype, if any, then a discriminator (an integer or a numeric enum),
 * then the one case it selects.
 */
public final class UnionModel extends NamedModel
{
    private Long typeId;
    private StructModel supertype;
    private Type discriminator;
    private final List<CaseModel> cases = new ArrayList<>();

    public UnionModel(Position position, String name, ScopeModel scope, boolean generated)
    {
        super(position, name, scope, generated);
    }

    public Long typeId()
    {
        return typeId;
    }

    public StructModel supertype()
    {
        return supertype;
    }

    /** A fixed-size {@link Primitive} that fits an int, or a numeric {@link EnumModel}. */
    public Type discriminator()
    {
        return discriminator;
    }

    public List<CaseModel> cases()
    {
        return cases;
    }

    /** The fields before the discriminator: the supertype's. */
    public List<FieldModel> inheritedFields()
    {
        return supertype != null ? supertype.fields() : List.of();
    }

    void typeId(Long typeId)
    {
        this.typeId = typeId;
    }

    void supertype(StructModel supertype)
    {
        this.supertype = supertype;
    }

    void discriminator(Type discriminator)
    {
        this.discriminator = discriminator;
    }
}
