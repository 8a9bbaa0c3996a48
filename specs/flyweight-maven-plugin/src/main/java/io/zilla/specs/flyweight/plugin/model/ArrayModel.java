/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

/** A count-prefixed array of items of one type. */
public record ArrayModel(ArrayKind kind, Type item) implements Type
{
    @Override
    public String idlName()
    {
        return kind.idlName() + "<" + item.idlName() + ">";
    }
}
