/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where each value of the parsed document came from in the file, so that any later stage (environment
 * substitution, the schema, the checks, the binding adapters) can report a problem at the right line and column.
 * <p>
 * A problem with a scalar is shown at the scalar. A problem with a mapping or a sequence is shown at its key, where
 * the reader looks for it ({@code north_tcp_server:}), rather than at its first entry on the next line; so is a
 * problem with an empty value ({@code options:}).
 */
final class SourceMap
{
    /** 1-based, as editors count. */
    record Position(int line, int column)
    {
    }

    private final String location;
    private final Map<ConfigPath, Position> values = new HashMap<>();
    private final Map<ConfigPath, Position> keys = new HashMap<>();
    private final Set<ConfigPath> shownAtKey = new HashSet<>();
    private final Set<ConfigPath> plainScalars = new HashSet<>();

    /**
     * @param location the file name that errors show, such as {@code zilla.yaml}
     */
    SourceMap(String location)
    {
        this.location = location;
    }

    /** An error about the value at {@code path}, shown where {@link #at} says. */
    ConfigError error(ConfigPath path, String message)
    {
        return error(path, at(path), message);
    }

    ConfigError error(ConfigPath path, Position position, String message)
    {
        return new ConfigError(location, position.line(), position.column(), path.toString(), message);
    }

    /**
     * @param showAtKey whether a problem with the value is better shown at its key: true for a mapping or a sequence,
     *                  and for an empty value, whose position is only the end of its key's line
     */
    void recordValue(ConfigPath path, Position position, boolean showAtKey)
    {
        values.put(path, position);
        if (showAtKey)
        {
            shownAtKey.add(path);
        }
    }

    void recordKey(ConfigPath path, Position position)
    {
        keys.put(path, position);
    }

    /** A scalar written without quotes or block indicators: YAML gives it a type from its text. */
    void recordPlainScalar(ConfigPath path)
    {
        plainScalars.add(path);
    }

    boolean isPlainScalar(ConfigPath path)
    {
        return plainScalars.contains(path);
    }

    /** Where to show a problem with the value at {@code path}, or with its nearest ancestor present in the file. */
    Position at(ConfigPath path)
    {
        ConfigPath present = path;
        while (!values.containsKey(present) && !present.isRoot())
        {
            present = present.parent();
        }
        final Position key = keys.get(present);
        return shownAtKey.contains(present) && key != null ? key : values.getOrDefault(present, new Position(1, 1));
    }

    /** Where to show a problem with the key of the property at {@code path}, such as an unknown property. */
    Position keyAt(ConfigPath path)
    {
        final Position key = keys.get(path);
        return key != null ? key : at(path);
    }
}
