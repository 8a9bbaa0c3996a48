/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.engine.config.ConditionConfig;

/**
 * A route's {@code when: path}: literal text and parameters such as {@code {path}}, each capturing one or more
 * characters, {@code /} included (a static site's files are nested), compiled once.
 *
 * @param path    the path as zilla.yaml gives it
 * @param pattern the compiled pattern, a named group per parameter
 * @param params  the parameters' names, in order
 */
public record HttpFilesystemConditionConfig(String path, Pattern pattern, List<String> params) implements ConditionConfig
{
    private static final Pattern PARAM = Pattern.compile("\\{([^}]*)\\}");
    private static final Pattern NAME = Pattern.compile("[A-Za-z][A-Za-z0-9]*");

    public HttpFilesystemConditionConfig
    {
        params = List.copyOf(params);
    }

    public static HttpFilesystemConditionConfig of(String path)
    {
        final StringBuilder regex = new StringBuilder();
        final List<String> params = new ArrayList<>();
        final Matcher matcher = PARAM.matcher(path);
        int last = 0;
        while (matcher.find())
        {
            final String name = matcher.group(1);
            if (!NAME.matcher(name).matches())
            {
                throw new IllegalArgumentException("'{" + name + "}' is not a parameter: a name of letters and digits");
            }
            if (params.contains(name))
            {
                throw new IllegalArgumentException("parameter '" + name + "' appears twice");
            }
            params.add(name);
            regex.append(Pattern.quote(path.substring(last, matcher.start()))).append("(?<").append(name).append(">.+)");
            last = matcher.end();
        }
        regex.append(Pattern.quote(path.substring(last)));
        return new HttpFilesystemConditionConfig(path, Pattern.compile(regex.toString()), params);
    }

    /** What {@code path} (decoded, without its query) captured, by name; null when it does not match. */
    public Map<String, String> match(String path)
    {
        final Matcher matcher = pattern.matcher(path);
        if (!matcher.matches())
        {
            return null;
        }
        final Map<String, String> captured = new java.util.HashMap<>();
        for (String param : params)
        {
            captured.put(param, matcher.group(param));
        }
        return captured;
    }
}
