/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.flyweight.plugin.idl.Position;

/** A struct: its fields in wire order, those of its supertype first. */
public final class StructModel extends NamedModel
{
    private Long typeId;
    private StructModel supertype;
    private final List<FieldModel> fields = new ArrayList<>();

    public StructModel(Position position, String name, ScopeModel scope, boolean generated)
    {
        super(position, name, scope, generated);
    }

    /** The {@code [typeId]}, or null. */
    public Long typeId()
    {
        return typeId;
    }

    public StructModel supertype()
    {
        return supertype;
    }

    /** Every field, inherited ones first. */
    public List<FieldModel> fields()
    {
        return fields;
    }

    void typeId(Long typeId)
    {
        this.typeId = typeId;
    }

    void supertype(StructModel supertype)
    {
        this.supertype = supertype;
    }
}
