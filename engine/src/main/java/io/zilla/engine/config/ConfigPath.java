/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Where a value is in the document: property names and array indexes from the root. Printed the way errors show
 * it, {@code bindings.north_tcp_server.routes[0].exit}; the empty path is the root.
 *
 * @param elements {@link String} property names and {@link Integer} indexes
 */
record ConfigPath(List<Object> elements)
{
    static final ConfigPath ROOT = new ConfigPath(List.of());

    /** A property name followed by one or more array indexes, such as {@code routes[0]}. */
    private static final Pattern INDEXED = Pattern.compile("(.+?)((?:\\[[0-9]{1,9}\\])+)");
    private static final Pattern INDEX = Pattern.compile("\\[([0-9]+)\\]");

    ConfigPath
    {
        elements = List.copyOf(elements);
    }

    static ConfigPath of(Object... elements)
    {
        return new ConfigPath(List.of(elements));
    }

    ConfigPath property(String name)
    {
        return append(name);
    }

    /**
     * Dotted property names, such as {@code keys.store}, appended, each with the array indexes written after it, such
     * as {@code routes[0].exit}; the empty string appends nothing.
     */
    ConfigPath properties(String dotted)
    {
        ConfigPath path = this;
        for (String name : dotted.split("\\."))
        {
            final Matcher indexed = INDEXED.matcher(name);
            if (indexed.matches())
            {
                path = path.property(indexed.group(1));
                for (Matcher index = INDEX.matcher(indexed.group(2)); index.find();)
                {
                    path = path.index(Integer.parseInt(index.group(1)));
                }
            }
            else if (!name.isEmpty())
            {
                path = path.property(name);
            }
        }
        return path;
    }

    ConfigPath index(int index)
    {
        return append(index);
    }

    /** The enclosing path; the root is its own parent. */
    ConfigPath parent()
    {
        return elements.isEmpty() ? this : new ConfigPath(elements.subList(0, elements.size() - 1));
    }

    boolean isRoot()
    {
        return elements.isEmpty();
    }

    @Override
    public String toString()
    {
        final StringBuilder text = new StringBuilder();
        for (Object element : elements)
        {
            if (element instanceof Integer)
            {
                text.append('[').append(element).append(']');
            }
            else
            {
                if (text.length() > 0)
                {
                    text.append('.');
                }
                text.append(element);
            }
        }
        return text.toString();
    }

    private ConfigPath append(Object element)
    {
        final List<Object> appended = new ArrayList<>(elements.size() + 1);
        appended.addAll(elements);
        appended.add(element);
        return new ConfigPath(appended);
    }
}
