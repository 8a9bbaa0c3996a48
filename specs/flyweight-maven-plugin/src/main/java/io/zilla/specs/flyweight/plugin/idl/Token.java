/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

import java.math.BigInteger;

/** One lexical token of an IDL file. */
public record Token(Kind kind, String text, BigInteger number, Position position)
{
    public enum Kind
    {
        IDENTIFIER,
        NUMBER,
        STRING,
        PUNCTUATION,
        END
    }

    public boolean is(String punctuationOrWord)
    {
        return (kind == Kind.PUNCTUATION || kind == Kind.IDENTIFIER) && text.equals(punctuationOrWord);
    }

    /** How the token reads in an error message. */
    public String describe()
    {
        return switch (kind)
        {
            case END -> "end of file";
            case STRING -> "string \"" + text + "\"";
            case NUMBER -> "number " + text;
            default -> "'" + text + "'";
        };
    }
}
