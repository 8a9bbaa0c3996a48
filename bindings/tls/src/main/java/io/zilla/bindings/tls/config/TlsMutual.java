/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.config;

import java.util.Locale;

/** Whether a tls server asks its clients for a certificate ({@code options.mutual}). */
public enum TlsMutual
{
    NONE,
    REQUESTED,
    REQUIRED;

    /** The value as zilla.yaml spells it. */
    public String yamlName()
    {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The value zilla.yaml spells {@code name}, or null for null. */
    public static TlsMutual of(String name)
    {
        return name != null ? valueOf(name.toUpperCase(Locale.ROOT)) : null;
    }
}
