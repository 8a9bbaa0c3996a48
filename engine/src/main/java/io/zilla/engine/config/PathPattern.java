/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;

import org.agrona.DirectBuffer;

/**
 * A route's {@code path}, compiled once: literal bytes, {@code {name}} (one or more characters other than {@code /},
 * or other than any of the delimiters it was compiled with, captured for {@code ${params.name}}) and {@code *} (any
 * run of characters, captured for nothing). It matches the request's path before any {@code ?query}, read in place
 * without allocating. Shared by the mappings that route by path (sse-kafka, http-kafka).
 */
public final class PathPattern
{
    private static final byte LITERAL = 0;
    private static final byte STAR = 1;
    private static final byte PARAM = 2;

    private final String text;
    private final byte[] kinds;
    private final byte[][] literals;
    private final String[] params;
    private final byte[] delimiters;

    private PathPattern(String text, byte[] kinds, byte[][] literals, String[] params, byte[] delimiters)
    {
        this.text = text;
        this.kinds = kinds;
        this.literals = literals;
        this.params = params;
        this.delimiters = delimiters;
    }

    /** @throws IllegalArgumentException for a parameter that is not a name, appears twice or is not closed */
    public static PathPattern compile(String text)
    {
        return compile(text, "/");
    }

    /**
     * As {@link #compile(String)}, a parameter taking no character of {@code delimiters} ({@code "/;"}: a segment
     * without its {@code ;matrix} part, so that {@code /items/{id}} and {@code /items/{id};cid={cid}} tell apart).
     */
    public static PathPattern compile(String text, String delimiters)
    {
        final List<Byte> kinds = new ArrayList<>();
        final List<byte[]> literals = new ArrayList<>();
        final List<String> params = new ArrayList<>();
        final StringBuilder literal = new StringBuilder();
        for (int i = 0; i < text.length(); i++)
        {
            final char c = text.charAt(i);
            if (c == '{' || c == '*')
            {
                if (!literal.isEmpty())
                {
                    kinds.add(LITERAL);
                    literals.add(literal.toString().getBytes(UTF_8));
                    params.add(null);
                    literal.setLength(0);
                }
                if (c == '*')
                {
                    kinds.add(STAR);
                    literals.add(null);
                    params.add(null);
                    continue;
                }
                final int close = text.indexOf('}', i);
                if (close < 0)
                {
                    throw new IllegalArgumentException("'{' at " + i + " is not closed by '}'");
                }
                final String name = text.substring(i + 1, close);
                if (!name.matches("[A-Za-z_][A-Za-z0-9_]*"))
                {
                    throw new IllegalArgumentException("'" + name + "' is not a parameter name (a letter or _, then"
                        + " letters, digits or _)");
                }
                if (params.contains(name))
                {
                    throw new IllegalArgumentException("parameter '" + name + "' appears twice");
                }
                if (!kinds.isEmpty() && kinds.get(kinds.size() - 1) != LITERAL)
                {
                    throw new IllegalArgumentException("parameter '" + name + "' follows another parameter or *: where"
                        + " one ends would be a guess");
                }
                kinds.add(PARAM);
                literals.add(null);
                params.add(name);
                i = close;
            }
            else if (c == '}')
            {
                throw new IllegalArgumentException("'}' at " + i + " closes nothing");
            }
            else
            {
                literal.append(c);
            }
        }
        if (!literal.isEmpty())
        {
            kinds.add(LITERAL);
            literals.add(literal.toString().getBytes(UTF_8));
            params.add(null);
        }
        final byte[] kindArray = new byte[kinds.size()];
        for (int i = 0; i < kindArray.length; i++)
        {
            kindArray[i] = kinds.get(i);
        }
        return new PathPattern(text, kindArray, literals.toArray(new byte[0][]), params.toArray(new String[0]),
            delimiters.getBytes(UTF_8));
    }

    public String text()
    {
        return text;
    }

    /** How many parts the pattern has: the size of the arrays {@link #matches} fills. */
    public int parts()
    {
        return kinds.length;
    }

    /** The part that captures {@code name}, or -1 when the pattern has no such parameter. */
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

    /** The parameter names, in order. */
    public List<String> params()
    {
        final List<String> names = new ArrayList<>();
        for (String param : params)
        {
            if (param != null)
            {
                names.add(param);
            }
        }
        return names;
    }

    /**
     * Whether the path at {@code offset} (up to any {@code ?}) matches; each part's captured range goes to
     * {@code starts[part]} and {@code ends[part]}, arrays of at least {@link #parts()}.
     */
    public boolean matches(DirectBuffer buffer, int offset, int length, int[] starts, int[] ends)
    {
        int limit = offset + length;
        for (int i = offset; i < limit; i++)
        {
            if (buffer.getByte(i) == '?')
            {
                limit = i;
                break;
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
            starts[part] = index;
            ends[part] = index + literal.length;
            return match(part + 1, buffer, index + literal.length, limit, starts, ends);
        }
        final boolean param = kinds[part] == PARAM;
        // a parameter takes one segment's characters, at least one; both take as few as let the rest match
        for (int end = param ? index + 1 : index; end <= limit; end++)
        {
            if (param && delimiter(buffer.getByte(end - 1)))
            {
                return false;
            }
            if (match(part + 1, buffer, end, limit, starts, ends))
            {
                starts[part] = index;
                ends[part] = end;
                return true;
            }
        }
        return false;
    }

    private boolean delimiter(byte b)
    {
        for (byte d : delimiters)
        {
            if (b == d)
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
