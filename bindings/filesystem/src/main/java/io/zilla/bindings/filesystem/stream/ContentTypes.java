/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem.stream;

import java.util.Locale;
import java.util.Map;

/**
 * A file's content type, from its name's extension: a small fixed table of what web pages are made of. Text types say
 * their charset (UTF-8), so that a browser does not guess; anything else is {@code application/octet-stream}.
 */
public final class ContentTypes
{
    public static final String DEFAULT = "application/octet-stream";

    private static final Map<String, String> BY_EXTENSION = Map.ofEntries(
        Map.entry("html", "text/html; charset=utf-8"),
        Map.entry("htm", "text/html; charset=utf-8"),
        Map.entry("css", "text/css; charset=utf-8"),
        Map.entry("js", "text/javascript; charset=utf-8"),
        Map.entry("mjs", "text/javascript; charset=utf-8"),
        Map.entry("json", "application/json"),
        Map.entry("map", "application/json"),
        Map.entry("txt", "text/plain; charset=utf-8"),
        Map.entry("xml", "application/xml"),
        Map.entry("svg", "image/svg+xml"),
        Map.entry("png", "image/png"),
        Map.entry("jpg", "image/jpeg"),
        Map.entry("jpeg", "image/jpeg"),
        Map.entry("gif", "image/gif"),
        Map.entry("webp", "image/webp"),
        Map.entry("ico", "image/x-icon"),
        Map.entry("wasm", "application/wasm"),
        Map.entry("woff", "font/woff"),
        Map.entry("woff2", "font/woff2"),
        Map.entry("pdf", "application/pdf"));

    private ContentTypes()
    {
    }

    /** The type of a file named {@code name} (its last segment counts). */
    public static String of(String name)
    {
        final int slash = name.lastIndexOf('/');
        final int dot = name.lastIndexOf('.');
        if (dot <= slash + 1 || dot == name.length() - 1)
        {
            // no extension, or a dot file such as .profile
            return DEFAULT;
        }
        final String type = BY_EXTENSION.get(name.substring(dot + 1).toLowerCase(Locale.ROOT));
        return type != null ? type : DEFAULT;
    }
}
