/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import java.util.List;

import io.zilla.specs.flyweight.plugin.model.StructModel;

/** Generates the flyweight of a struct: its fields, those of its supertype first, in wire order. */
final class StructGenerator extends CompositeGenerator
{
    private final StructModel struct;

    StructGenerator(StructModel struct)
    {
        super(struct);
        this.struct = struct;
        addFields(struct.fields());
        Member.layout(members);
    }

    @Override
    String kindName()
    {
        return "struct";
    }

    @Override
    Long typeId()
    {
        return struct.typeId();
    }

    @Override
    void moreConstants(JavaWriter out)
    {
    }

    @Override
    void readerDeclarations(JavaWriter out)
    {
    }

    @Override
    void accessors(JavaWriter out)
    {
    }

    @Override
    void decodeTail(JavaWriter out)
    {
    }

    @Override
    String describeTail()
    {
        return null;
    }

    @Override
    List<String> fieldNames()
    {
        return members.stream().map(member -> member.name).toList();
    }

    @Override
    void builderDeclarations(JavaWriter out)
    {
    }

    @Override
    void builderTail(JavaWriter out)
    {
    }
}
