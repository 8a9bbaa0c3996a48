/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem.stream;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** A request's :path as a file path, and its If-None-Match as entity tags. */
public final class RequestPaths
{
    private RequestPaths()
    {
    }

    /**
     * The path without its query, percent-decoded once (a {@code %252e} stays {@code %2e}), as UTF-8; null when it
     * does not start with {@code /}, has a malformed escape, or is not UTF-8.
     */
    public static String decode(String target)
    {
        if (target == null || target.isEmpty() || target.charAt(0) != '/')
        {
            return null;
        }
        int end = target.indexOf('?');
        final int fragment = target.indexOf('#');
        end = end < 0 ? fragment : fragment < 0 ? end : Math.min(end, fragment);
        final String raw = end < 0 ? target : target.substring(0, end);
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(raw.length());
        for (int i = 0; i < raw.length(); i++)
        {
            final char c = raw.charAt(i);
            if (c == '%')
            {
                if (i + 2 >= raw.length())
                {
                    return null;
                }
                final int high = Character.digit(raw.charAt(i + 1), 16);
                final int low = Character.digit(raw.charAt(i + 2), 16);
                if (high < 0 || low < 0)
                {
                    return null;
                }
                bytes.write(high << 4 | low);
                i += 2;
            }
            else if (c > 0x7f)
            {
                final byte[] encoded = String.valueOf(c).getBytes(StandardCharsets.UTF_8);
                bytes.write(encoded, 0, encoded.length);
            }
            else
            {
                bytes.write(c);
            }
        }
        try
        {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes.toByteArray()))
                .toString();
        }
        catch (CharacterCodingException ex)
        {
            return null;
        }
    }

    /**
     * The opaque tags of an If-None-Match list ({@code "a", W/"b"}: a and b; weak comparison, RFC 9110 13.1.2), or
     * {@code *}; empty when there are none or the list is malformed (then it is ignored, as if absent).
     */
    public static List<String> tags(String ifNoneMatch)
    {
        final List<String> tags = new ArrayList<>();
        if (ifNoneMatch == null)
        {
            return tags;
        }
        final String list = ifNoneMatch.trim();
        if (list.equals("*"))
        {
            tags.add("*");
            return tags;
        }
        int i = 0;
        while (i < list.length())
        {
            final char c = list.charAt(i);
            if (c == ' ' || c == '\t' || c == ',')
            {
                i++;
                continue;
            }
            if (list.startsWith("W/", i))
            {
                i += 2;
            }
            if (i >= list.length() || list.charAt(i) != '"')
            {
                tags.clear();
                return tags;
            }
            final int close = list.indexOf('"', i + 1);
            if (close < 0)
            {
                tags.clear();
                return tags;
            }
            tags.add(list.substring(i + 1, close));
            i = close + 1;
        }
        return tags;
    }
}
