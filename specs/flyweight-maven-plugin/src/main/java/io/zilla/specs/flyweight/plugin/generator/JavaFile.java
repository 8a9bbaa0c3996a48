/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

/** One generated Java source file. */
public record JavaFile(String packageName, String simpleName, String content)
{
    /** Its path below a source root, such as {@code io/zilla/specs/core/types/stream/DataFW.java}. */
    public String path()
    {
        return packageName.replace('.', '/') + "/" + simpleName + ".java";
    }
}
