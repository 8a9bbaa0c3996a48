/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.generator;

import java.math.BigInteger;

/** Java source spellings of IDL literals. */
final class Literals
{
    private Literals()
    {
    }

    /** An integer literal of the given Java type ({@code int} or {@code long}). */
    static String integer(BigInteger value, String javaType)
    {
        return "long".equals(javaType) ? value + "L" : value.toString();
    }

    /** A quoted, escaped Java string literal. */
    static String string(String value)
    {
        final StringBuilder literal = new StringBuilder("\"");
        for (char c : value.toCharArray())
        {
            switch (c)
            {
                case '"' -> literal.append("\\\"");
                case '\\' -> literal.append("\\\\");
                case '\n' -> literal.append("\\n");
                case '\r' -> literal.append("\\r");
                case '\t' -> literal.append("\\t");
                default ->
                {
                    if (c < 0x20 || c > 0x7e)
                    {
                        literal.append(String.format("\\u%04x", (int) c));
                    }
                    else
                    {
                        literal.append(c);
                    }
                }
            }
        }
        return literal.append('"').toString();
    }
}
