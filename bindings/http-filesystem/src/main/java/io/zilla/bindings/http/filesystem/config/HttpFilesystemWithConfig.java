/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.engine.config.WithConfig;

/**
 * A route's {@code with: path}: the file's path relative to the filesystem binding's location, with
 * {@code ${params.name}} replaced by what the route's path captured.
 *
 * @param path  the template as zilla.yaml gives it
 * @param parts literal text and parameter names, alternating, starting with a literal (maybe empty)
 */
public record HttpFilesystemWithConfig(String path, List<String> parts) implements WithConfig
{
    private static final Pattern PARAM = Pattern.compile("\\$\\{params\\.([A-Za-z][A-Za-z0-9]*)\\}");

    public HttpFilesystemWithConfig
    {
        parts = List.copyOf(parts);
    }

    public static HttpFilesystemWithConfig of(String path)
    {
        final List<String> parts = new ArrayList<>();
        final Matcher matcher = PARAM.matcher(path);
        int last = 0;
        while (matcher.find())
        {
            parts.add(path.substring(last, matcher.start()));
            parts.add(matcher.group(1));
            last = matcher.end();
        }
        final String tail = path.substring(last);
        parts.add(tail);
        if (PARAM.matcher(path).replaceAll("").contains("${"))
        {
            throw new IllegalArgumentException("'" + path + "': only ${params.name} may be substituted");
        }
        return new HttpFilesystemWithConfig(path, parts);
    }

    /** The parameters named, in order. */
    public List<String> params()
    {
        final List<String> params = new ArrayList<>();
        for (int i = 1; i < parts.size(); i += 2)
        {
            params.add(parts.get(i));
        }
        return params;
    }

    /** The file's path for what a route's path captured. */
    public String resolve(Map<String, String> captured)
    {
        final StringBuilder resolved = new StringBuilder(parts.get(0));
        for (int i = 1; i < parts.size(); i += 2)
        {
            resolved.append(captured.get(parts.get(i))).append(parts.get(i + 1));
        }
        return resolved.toString();
    }
}
