/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

/**
 * A value refused by a type's adapter, at a place inside the node it was given: a vault's {@code options} adapter
 * throws {@code new ConfigValueException("keys.store", "cannot read ...")}, and the error is reported at
 * {@code vaults.<name>.options.keys.store}, with that value's line and column.
 */
public final class ConfigValueException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    private final String path;

    /**
     * @param path    dotted property names from the node the adapter was given, such as {@code keys.store}, each with
     *                the array indexes that follow it, such as {@code routes[0].exit}
     * @param message what is wrong, in the user's terms
     */
    public ConfigValueException(String path, String message)
    {
        super(message);
        this.path = path;
    }

    public ConfigValueException(String path, String message, Throwable cause)
    {
        super(message, cause);
        this.path = path;
    }

    /** Dotted property names (and array indexes) from the node the adapter was given; empty for the node itself. */
    public String path()
    {
        return path;
    }
}
