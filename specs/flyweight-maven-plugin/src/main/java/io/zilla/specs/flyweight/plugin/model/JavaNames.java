/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.util.Locale;

/** How IDL names become Java names, shared by the resolver (to refuse clashes) and the generator (to write them). */
public final class JavaNames
{
    private JavaNames()
    {
    }

    /**
     * {@code FIELD_}, {@code KIND_} or {@code DEFAULT_} and the name in upper snake case: fooBar and foo_bar
     * both give FOO_BAR.
     */
    public static String constantName(String prefix, String name)
    {
        return prefix + name.replaceAll("([a-z0-9])([A-Z])", "$1_$2").toUpperCase(Locale.ROOT);
    }

    /** The builder method that appends one item to an array field. */
    public static String itemSetterName(String arrayField)
    {
        return arrayField + "Item";
    }
}
