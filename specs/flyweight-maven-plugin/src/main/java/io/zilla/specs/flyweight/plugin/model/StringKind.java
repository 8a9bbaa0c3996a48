/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

/** The length-prefixed strings, each nullable with a length of -1. */
public enum StringKind implements Type
{
    STRING8("string8", "String8FW", 1, Byte.MAX_VALUE, false),
    STRING16("string16", "String16FW", 2, Short.MAX_VALUE, true),
    VARSTRING("varstring", "VarStringFW", 1, Integer.MAX_VALUE, false);

    private final String idlName;
    private final String flyweight;
    private final int minSize;
    private final int maxLength;
    private final boolean ordered;

    StringKind(String idlName, String flyweight, int minSize, int maxLength, boolean ordered)
    {
        this.idlName = idlName;
        this.flyweight = flyweight;
        this.minSize = minSize;
        this.maxLength = maxLength;
        this.ordered = ordered;
    }

    @Override
    public String idlName()
    {
        return idlName;
    }

    /** The runtime flyweight class. */
    public String flyweight()
    {
        return flyweight;
    }

    public int minSize()
    {
        return minSize;
    }

    public int maxLength()
    {
        return maxLength;
    }

    /** Whether its length prefix has a byte order (and its flyweight a ByteOrder constructor argument). */
    public boolean isOrdered()
    {
        return ordered;
    }

    public static StringKind of(String idlName)
    {
        for (StringKind kind : values())
        {
            if (kind.idlName.equals(idlName))
            {
                return kind;
            }
        }
        return null;
    }
}
