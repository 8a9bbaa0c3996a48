/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.util.List;

/** The resolved types of a set of IDL files; {@link #generated} are those this module writes out. */
public record Model(List<NamedModel> types)
{
    public List<NamedModel> generated()
    {
        return types.stream().filter(NamedModel::isGenerated).toList();
    }

    public NamedModel find(String qualifiedName)
    {
        return types.stream().filter(type -> type.qualifiedName().equals(qualifiedName)).findFirst().orElse(null);
    }
}
