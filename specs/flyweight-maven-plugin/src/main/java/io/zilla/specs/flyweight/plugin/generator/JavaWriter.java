/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

/** Writes Java source line by line, with Allman braces and four-space indentation. */
final class JavaWriter
{
    private final StringBuilder text = new StringBuilder();
    private int indent;

    JavaWriter line(String line)
    {
        if (!line.isEmpty())
        {
            text.append("    ".repeat(indent)).append(line);
        }
        text.append('\n');
        return this;
    }

    JavaWriter blank()
    {
        return line("");
    }

    /** Writes {@code header}, then opens a block. */
    JavaWriter open(String header)
    {
        line(header);
        return open();
    }

    JavaWriter open()
    {
        line("{");
        indent++;
        return this;
    }

    JavaWriter close()
    {
        return close("}");
    }

    JavaWriter close(String closing)
    {
        indent--;
        return line(closing);
    }

    /** Writes a block that holds one statement, such as {@code if (...) { return TRUNCATED; }}. */
    JavaWriter guard(String condition, String statement)
    {
        open("if (" + condition + ")");
        line(statement);
        return close();
    }

    /** A {@code case} label inside a switch block; what follows is indented until {@link #endLabel}. */
    JavaWriter label(String label)
    {
        line(label);
        indent++;
        return this;
    }

    JavaWriter endLabel()
    {
        indent--;
        return this;
    }

    @Override
    public String toString()
    {
        return text.toString();
    }
}
