/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

/** Where something is in an IDL file; lines and columns count from 1. */
public record Position(String file, int line, int column)
{
    @Override
    public String toString()
    {
        return file + ":" + line + ":" + column;
    }
}
