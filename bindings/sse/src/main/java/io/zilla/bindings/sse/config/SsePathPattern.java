/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;

/**
 * A route's path pattern, as the http binding's {@code :path} patterns are: literal bytes, {@code *} (any run of
 * characters) and parameters such as {@code {id}} (one or more characters other than {@code /} and {@code ?}). A
 * pattern without a {@code ?} matches the path before any query string. The sse binding captures nothing (its routes
 * have no {@code with}), so this is the matching half only. Matching reads the path in place and allocates nothing.
 */
public final class SsePathPattern
{
    private static final byte LITERAL = 0;
    private static final byte STAR = 1;
    private static final byte PARAM = 2;

    private final byte[][] literals;
    private final byte[] kinds;
    private final boolean beforeQuery;
    private final String text;

    private SsePathPattern(String text, byte[][] literals, byte[] kinds, boolean beforeQuery)
    {
        this.text = text;
        this.literals = literals;
        this.kinds = kinds;
        this.beforeQuery = beforeQuery;
    }

    public static SsePathPattern compile(String text)
    {
        final List<byte[]> literals = new ArrayList<>();
        final List<Byte> kinds = new ArrayList<>();
        final List<String> params = new ArrayList<>();
        final StringBuilder literal = new StringBuilder();
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            final int close = c == '{' ? text.indexOf('}', i) : -1;
            if (c == '*' || close > i + 1)
            {
                if (!literal.isEmpty())
                {
                    literals.add(literal.toString().getBytes(StandardCharsets.UTF_8));
                    kinds.add(LITERAL);
                    literal.setLength(0);
                }
                literals.add(null);
                if (c == '*')
                {
                    kinds.add(STAR);
                }
                else
                {
                    final String name = text.substring(i + 1, close);
                    if (!name.matches("[A-Za-z_][A-Za-z0-9_]*"))
                    {
                        throw new IllegalArgumentException("'" + name + "' is not a parameter name");
                    }
                    if (params.contains(name))
                    {
                        throw new IllegalArgumentException("parameter '" + name + "' appears twice");
                    }
                    params.add(name);
                    kinds.add(PARAM);
                    i = close;
                }
            }
            else
            {
                literal.append(c);
            }
        }
        if (!literal.isEmpty())
        {
            literals.add(literal.toString().getBytes(StandardCharsets.UTF_8));
            kinds.add(LITERAL);
        }
        final byte[] kindArray = new byte[kinds.size()];
        for (int i = 0; i < kindArray.length; i++)
        {
            kindArray[i] = kinds.get(i);
        }
        return new SsePathPattern(text, literals.toArray(new byte[0][]), kindArray, text.indexOf('?') < 0);
    }

    /** Whether the path (with its query) of {@code length} bytes at {@code offset} matches. */
    public boolean matches(DirectBuffer buffer, int offset, int length)
    {
        int limit = offset + length;
        if (beforeQuery)
        {
            for (int i = offset; i < limit; i++)
            {
                if (buffer.getByte(i) == '?')
                {
                    limit = i;
                    break;
                }
            }
        }
        return match(0, buffer, offset, limit);
    }

    private boolean match(int part, DirectBuffer buffer, int index, int limit)
    {
        if (part == kinds.length)
        {
            return index == limit;
        }
        if (kinds[part] == LITERAL)
        {
            final byte[] literal = literals[part];
            if (limit - index < literal.length)
            {
                return false;
            }
            for (int i = 0; i < literal.length; i++)
            {
                if (buffer.getByte(index + i) != literal[i])
                {
                    return false;
                }
            }
            return match(part + 1, buffer, index + literal.length, limit);
        }
        final boolean param = kinds[part] == PARAM;
        // a parameter takes at least one character and no / or ?; both take as few as let the rest match
        for (int end = param ? index + 1 : index; end <= limit; end++)
        {
            if (param)
            {
                final byte last = buffer.getByte(end - 1);
                if (last == '/' || last == '?')
                {
                    return false;
                }
            }
            if (match(part + 1, buffer, end, limit))
            {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString()
    {
        return text;
    }
}
