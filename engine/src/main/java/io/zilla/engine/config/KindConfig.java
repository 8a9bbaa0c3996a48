/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.Locale;

/** The {@code kind} of a binding. */
public enum KindConfig
{
    SERVER,
    CLIENT,
    PROXY,
    REMOTE_SERVER,
    CACHE_CLIENT,
    CACHE_SERVER;

    /** The spelling in zilla.yaml: {@code server}, {@code cache_client}... */
    public String yamlName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    public static KindConfig of(String yamlName)
    {
        for (KindConfig kind : values())
        {
            if (kind.yamlName().equals(yamlName))
            {
                return kind;
            }
        }
        return null;
    }
}
