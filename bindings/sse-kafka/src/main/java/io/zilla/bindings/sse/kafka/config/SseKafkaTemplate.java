/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.config;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.engine.config.ConfigValueException;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * A value of a route's {@code with} (a topic, a filter's key or header value): literal text with {@code ${params.name}}
 * in it, the bytes a route's path captured for {@code {name}}, percent-decoded ({@code %20} a space, {@code %2F} a
 * slash). Resolved once per stream, when it begins.
 */
public final class SseKafkaTemplate
{
    private static final Pattern EXPRESSION = Pattern.compile("\\$\\{([^}]*)}");
    private static final Pattern PARAM = Pattern.compile("params\\.([A-Za-z_][A-Za-z0-9_]*)");

    private final String text;
    // each part a literal (its bytes, param null) or a parameter (its name, literal null)
    private final byte[][] literals;
    private final String[] params;

    private SseKafkaTemplate(String text, byte[][] literals, String[] params)
    {
        this.text = text;
        this.literals = literals;
        this.params = params;
    }

    /**
     * @param path where the value is, from the {@code with} node, for the error
     * @throws ConfigValueException for any {@code ${...}} that is not {@code ${params.name}}
     */
    public static SseKafkaTemplate parse(String path, String text)
    {
        final List<byte[]> literals = new ArrayList<>();
        final List<String> params = new ArrayList<>();
        final Matcher matcher = EXPRESSION.matcher(text);
        int start = 0;
        while (matcher.find())
        {
            final Matcher param = PARAM.matcher(matcher.group(1));
            if (!param.matches())
            {
                throw new ConfigValueException(path, "unknown expression " + matcher.group() + ": a value here may hold"
                    + " ${params.<name>} only, the segment a route's path captured as {<name>}");
            }
            if (matcher.start() > start)
            {
                literals.add(text.substring(start, matcher.start()).getBytes(UTF_8));
                params.add(null);
            }
            literals.add(null);
            params.add(param.group(1));
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
        }
        return new SseKafkaTemplate(text, literals.toArray(new byte[0][]), params.toArray(new String[0]));
    }

    public String text()
    {
        return text;
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

    /**
     * Writes the value at {@code offset}, each parameter as the range {@code path} captured in {@code source}.
     *
     * @return its length, or -1 when it does not fit before {@code limit}, or when the pattern lacks a parameter
     */
    public int resolve(SseKafkaPathPattern path, DirectBuffer source, int[] starts, int[] ends,
        MutableDirectBuffer target, int offset, int limit)
    {
        int at = offset;
        for (int i = 0; i < params.length; i++)
        {
            if (params[i] == null)
            {
                if (at + literals[i].length > limit)
                {
                    return -1;
                }
                target.putBytes(at, literals[i]);
                at += literals[i].length;
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
