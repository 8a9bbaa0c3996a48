/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

/**
 * One problem in a zilla.yaml, where it is: printed as
 * {@code zilla.yaml:7:13 bindings.north_tcp_server.options.port: must be an integer, a range "8000-8010" or a list}.
 *
 * @param location the file name as the user gave it
 * @param line     1-based
 * @param column   1-based
 * @param path     dotted path to the value, such as {@code bindings.north_tcp_server.options.port}; empty at the top
 * @param message  what is wrong, in the user's terms
 */
public record ConfigError(String location, int line, int column, String path, String message)
{
    @Override
    public String toString()
    {
        return location + ":" + line + ":" + column + " " + (path.isEmpty() ? "" : path + ": ") + message;
    }
}
