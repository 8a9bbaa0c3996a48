/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.config;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;

/**
 * A header value that a route requires, compiled once: literal bytes, {@code *} (any run of characters) and, in a
 * {@code :path}, parameters such as {@code {id}} (one or more characters other than {@code /} and {@code ?}), whose
 * captured ranges a route's {@code with} can name as {@code ${params.id}}. A {@code :path} pattern without a
 * {@code ?} matches the path before any query string. Matching reads the value in place and allocates nothing.
 */
public final class HttpPattern
{
    private static final byte STAR = 1;
    private static final byte PARAM = 2;

    // each part is a literal (bytes), a star or a parameter
    private final byte[][] literals;
    private final byte[] kinds;
    private final String[] params;
    private final boolean path;
    private final String text;

    private HttpPattern(String text, byte[][] literals, byte[] kinds, String[] params, boolean path)
    {
        this.text = text;
        this.literals = literals;
        this.kinds = kinds;
        this.params = params;
        this.path = path;
    }

    /**
     * @param text the value from zilla.yaml
     * @param path whether it is a {@code :path}, where {@code {name}} captures a segment
     */
    public static HttpPattern compile(String text, boolean path)
    {
        final List<byte[]> literals = new ArrayList<>();
        final List<Byte> kinds = new ArrayList<>();
        final List<String> params = new ArrayList<>();
        final StringBuilder literal = new StringBuilder();
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            final int close = path && c == '{' ? text.indexOf('}', i) : -1;
            if (c == '*' || close > i + 1)
            {
                if (!literal.isEmpty())
                {
                    literals.add(literal.toString().getBytes(StandardCharsets.UTF_8));
                    kinds.add((byte) 0);
                    literal.setLength(0);
                }
                literals.add(null);
                if (c == '*')
                {
                    kinds.add(STAR);
                    params.add(null);
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
                    kinds.add(PARAM);
                    params.add(name);
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
            kinds.add((byte) 0);
        }
        final byte[] kindArray = new byte[kinds.size()];
        for (int i = 0; i < kindArray.length; i++)
        {
            kindArray[i] = kinds.get(i);
        }
        // params are numbered by their place among the wildcards, stars included, so that captures line up
        final String[] paramArray = new String[kindArray.length];
        int wildcard = 0;
        for (int i = 0; i < kindArray.length; i++)
        {
            if (kindArray[i] != 0)
            {
                paramArray[i] = params.get(wildcard++);
            }
        }
        return new HttpPattern(text, literals.toArray(new byte[0][]), kindArray, paramArray,
            path && text.indexOf('?') < 0);
    }

    /** The names of the parameters, by part; null for parts that capture nothing. */
    public String param(int part)
    {
        return params[part];
    }

    public int parts()
    {
        return kinds.length;
    }

    /** The part that captures {@code name}, or -1. */
    public int paramPart(String name)
    {
        for (int i = 0; i < params.length; i++)
        {
            if (name.equals(params[i]))
            {
                return i;
            }
        }
        return -1;
    }

    /**
     * Whether {@code value} matches; each wildcard part's captured range goes to {@code starts[part]} and
     * {@code ends[part]} (arrays of at least {@link #parts()}, or null).
     */
    public boolean matches(DirectBuffer buffer, int offset, int length, int[] starts, int[] ends)
    {
        int limit = offset + length;
        if (path)
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
        return match(0, buffer, offset, limit, starts, ends);
    }

    private boolean match(int part, DirectBuffer buffer, int index, int limit, int[] starts, int[] ends)
    {
        if (part == kinds.length)
        {
            return index == limit;
        }
        switch (kinds[part])
        {
            case STAR, PARAM ->
            {
                final boolean param = kinds[part] == PARAM;
                // a parameter takes at least one character; both take as few as let the rest match
                for (int end = param ? index + 1 : index; end <= limit; end++)
                {
                    if (param && end > index && buffer.getByte(end - 1) == '/')
                    {
                        return false;
                    }
                    if (match(part + 1, buffer, end, limit, starts, ends))
                    {
                        if (starts != null)
                        {
                            starts[part] = index;
                            ends[part] = end;
                        }
                        return true;
                    }
                }
                return false;
            }
            default ->
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
                return match(part + 1, buffer, index + literal.length, limit, starts, ends);
            }
        }
    }

    @Override
    public String toString()
    {
        return text;
    }
}
