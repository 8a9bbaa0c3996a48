/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A value of a route's {@code with} (a topic, a filter's key or header value, a location): literal text with
 * {@code ${params.name}} in it, the bytes a route's path captured for {@code {name}}, percent-decoded ({@code %20} a
 * space, {@code %2F} a slash), and, where the binding allows them, named values of its own ({@code ${idempotencyKey}},
 * {@code ${correlationId}}) that the binding writes when it resolves the value. Resolved once per stream, when it
 * begins. Shared by the mappings (sse-kafka, http-kafka).
 */
public final class ValueTemplate
{
    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{([^}]*)}");
    private static final Pattern PARAM = Pattern.compile("params\\.([A-Za-z_][A-Za-z0-9_]*)");
    private static final String[] NO_VARIABLES = new String[0];

    /** Writes a binding's named value {@code variable} (its index in the names it parsed with) at {@code offset}. */
    @FunctionalInterface
    public interface Variables
    {
        /** @return the length written, or -1 when it does not fit before {@code limit} or has no value now */
        int write(int variable, MutableDirectBuffer target, int offset, int limit);
    }

    private final String text;
    // each part a literal (its bytes), a parameter (its name) or a variable (its index, from 0), the others null / -1
    private final byte[][] literals;
    private final String[] params;
    private final int[] variables;

    private ValueTemplate(String text, byte[][] literals, String[] params, int[] variables)
    {
        this.text = text;
        this.literals = literals;
        this.params = params;
        this.variables = variables;
    }

    /**
     * @param path where the value is, from the {@code with} node, for the error
     * @throws ConfigValueException for any {@code ${...}} that is not {@code ${params.name}}
     */
    public static ValueTemplate parse(String path, String text)
    {
        return parse(path, text, NO_VARIABLES);
    }

    /**
     * As {@link #parse(String, String)}, with {@code ${name}} for each of {@code names} allowed too.
     *
     * @throws ConfigValueException for any {@code ${...}} that is neither
     */
    public static ValueTemplate parse(String path, String text, String... names)
    {
        final List<byte[]> literals = new ArrayList<>();
        final List<String> params = new ArrayList<>();
        final List<Integer> variables = new ArrayList<>();
        final Matcher matcher = EXPRESSION.matcher(text);
        int start = 0;
        while (matcher.find())
        {
            final Matcher param = PARAM.matcher(matcher.group(1));
            final int variable = List.of(names).indexOf(matcher.group(1));
            if (!param.matches() && variable < 0)
            {
                final StringBuilder allowed = new StringBuilder("${params.<name>} only, the segment a route's path"
                    + " captured as {<name>}");
                for (String name : names)
                {
                    allowed.append(", or ${").append(name).append('}');
                }
                throw new ConfigValueException(path, "unknown expression " + matcher.group() + ": a value here may hold "
                    + allowed);
            }
            if (matcher.start() > start)
            {
                literals.add(text.substring(start, matcher.start()).getBytes(UTF_8));
                params.add(null);
                variables.add(-1);
            }
            literals.add(null);
            params.add(variable < 0 ? param.group(1) : null);
            variables.add(variable);
            start = matcher.end();
        }
        final int open = text.indexOf("${", start);
        if (open >= 0)
        {
            throw new ConfigValueException(path, "'${' at " + open + " is not closed by '}'");
        }
        if (start < text.length() || literals.isEmpty())
        {
            literals.add(text.substring(start).getBytes(UTF_8));
            params.add(null);
            variables.add(-1);
        }
        return new ValueTemplate(text, literals.toArray(new byte[0][]), params.toArray(new String[0]),
            variables.stream().mapToInt(Integer::intValue).toArray());
    }

    public String text()
    {
        return text;
    }

    /**
     * The value's bytes when it is one literal (no parameter, no named value), which a binding may then use as they
     * are instead of resolving them per stream; null otherwise. Not to be written to.
     */
    public byte[] constant()
    {
        return literals.length == 1 && literals[0] != null ? literals[0] : null;
    }

    /** The parameters the value names, in order. */
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

    /** Whether the value names the binding's named value {@code variable}. */
    public boolean uses(int variable)
    {
        for (int v : variables)
        {
            if (v == variable)
            {
                return true;
            }
        }
        return false;
    }

    /**
     * Writes the value at {@code offset}, each parameter as the range {@code path} captured in {@code source}.
     *
     * @return its length, or -1 when it does not fit before {@code limit}, or when the pattern lacks a parameter
     */
    public int resolve(PathPattern path, DirectBuffer source, int[] starts, int[] ends,
        MutableDirectBuffer target, int offset, int limit)
    {
        return resolve(path, source, starts, ends, null, target, offset, limit);
    }

    /** As the other resolve, the binding's named values written by {@code values} (null: the value has none). */
    public int resolve(PathPattern path, DirectBuffer source, int[] starts, int[] ends, Variables values,
        MutableDirectBuffer target, int offset, int limit)
    {
        int at = offset;
        for (int i = 0; i < params.length; i++)
        {
            if (literals[i] != null)
            {
                if (at + literals[i].length > limit)
                {
                    return -1;
                }
                target.putBytes(at, literals[i]);
                at += literals[i].length;
            }
            else if (variables[i] >= 0)
            {
                final int length = values != null ? values.write(variables[i], target, at, limit) : -1;
                if (length < 0)
                {
                    return -1;
                }
                at += length;
            }
            else
            {
                final int part = path != null ? path.paramPart(params[i]) : -1;
                if (part < 0 || at + ends[part] - starts[part] > limit)
                {
                    return -1;
                }
                at = decode(source, starts[part], ends[part], target, at);
            }
        }
        return at - offset;
    }

    // a path segment's bytes, each %XX (two hex digits) as the byte it stands for, as a URL's path is read; a % not
    // followed by two hex digits is itself. Never longer than the segment.
    private static int decode(DirectBuffer source, int start, int end, MutableDirectBuffer target, int at)
    {
        int out = at;
        for (int i = start; i < end; i++)
        {
            final byte b = source.getByte(i);
            final int high = b == '%' && i + 2 < end ? hex(source.getByte(i + 1)) : -1;
            final int low = high >= 0 ? hex(source.getByte(i + 2)) : -1;
            if (low >= 0)
            {
                target.putByte(out++, (byte) (high << 4 | low));
                i += 2;
            }
            else
            {
                target.putByte(out++, b);
            }
        }
        return out;
    }

    private static int hex(byte c)
    {
        return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
    }

    @Override
    public String toString()
    {
        return text;
    }
}
