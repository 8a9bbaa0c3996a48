/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

/**
 * Raw bytes: {@code octets[n]} (a fixed size), {@code octets[field]} (the size in an earlier integer field)
 * or a trailing {@code octets} that takes the rest of the enclosing value.
 */
public record OctetsModel(int fixedSize, String sizeField) implements Type
{
    public static final OctetsModel TRAILING = new OctetsModel(-1, null);

    public boolean isFixed()
    {
        return fixedSize >= 0;
    }

    public boolean isSized()
    {
        return sizeField != null;
    }

    public boolean isTrailing()
    {
        return fixedSize < 0 && sizeField == null;
    }

    @Override
    public String idlName()
    {
        return isFixed() ? "octets[" + fixedSize + "]" : isSized() ? "octets[" + sizeField + "]" : "octets";
    }
}
