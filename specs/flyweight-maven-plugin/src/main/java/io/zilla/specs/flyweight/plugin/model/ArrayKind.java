/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

/** The count prefixes of arrays. */
public enum ArrayKind
{
    ARRAY8("array8", "Array8FW", 1, false),
    ARRAY16("array16", "Array16FW", 2, true),
    ARRAY32("array32", "Array32FW", 4, true),
    VARARRAY("vararray", "VarArrayFW", 1, false);

    private final String idlName;
    private final String flyweight;
    private final int minSize;
    private final boolean ordered;

    ArrayKind(String idlName, String flyweight, int minSize, boolean ordered)
    {
        this.idlName = idlName;
        this.flyweight = flyweight;
        this.minSize = minSize;
        this.ordered = ordered;
    }

    public String idlName()
    {
        return idlName;
    }

    public String flyweight()
    {
        return flyweight;
    }

    public int minSize()
    {
        return minSize;
    }

    public boolean isOrdered()
    {
        return ordered;
    }

    public static ArrayKind of(String idlName)
    {
        for (ArrayKind kind : values())
        {
            if (kind.idlName.equals(idlName))
            {
                return kind;
            }
        }
        return null;
    }
}
