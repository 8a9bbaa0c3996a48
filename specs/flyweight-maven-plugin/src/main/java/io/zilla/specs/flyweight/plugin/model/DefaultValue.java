/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.math.BigInteger;

/** A field default: a number, a string, {@code null}, or an enum constant. */
public record DefaultValue(Kind kind, BigInteger number, String text, EnumConstant constant)
{
    public enum Kind
    {
        NUMBER,
        STRING,
        NULL,
        CONSTANT
    }

    public static DefaultValue number(BigInteger value)
    {
        return new DefaultValue(Kind.NUMBER, value, null, null);
    }

    public static DefaultValue string(String value)
    {
        return new DefaultValue(Kind.STRING, null, value, null);
    }

    public static DefaultValue nullValue()
    {
        return new DefaultValue(Kind.NULL, null, null, null);
    }

    public static DefaultValue constant(EnumConstant constant)
    {
        return new DefaultValue(Kind.CONSTANT, null, null, constant);
    }

    public boolean isNull()
    {
        return kind == Kind.NULL;
    }
}
