/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import java.util.ArrayList;
import java.util.List;

import io.zilla.specs.flyweight.plugin.model.EnumModel;
import io.zilla.specs.flyweight.plugin.model.Model;
import io.zilla.specs.flyweight.plugin.model.NamedModel;
import io.zilla.specs.flyweight.plugin.model.StructModel;
import io.zilla.specs.flyweight.plugin.model.UnionModel;

/** Generates the Java sources of every type a module defines (not those it only refers to). */
public final class FlyweightGenerator
{
    private FlyweightGenerator()
    {
    }

    public static List<JavaFile> generate(Model model)
    {
        final List<JavaFile> files = new ArrayList<>();
        for (NamedModel type : model.generated())
        {
            if (type instanceof StructModel struct)
            {
                files.add(new StructGenerator(struct).generate());
            }
            else if (type instanceof UnionModel union)
            {
                files.add(new UnionGenerator(union).generate());
            }
            else
            {
                files.addAll(new EnumGenerator((EnumModel) type).generate());
            }
        }
        return files;
    }
}
