/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.List;

/** A zilla.yaml that cannot run, with every problem found in it. */
public final class ConfigException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient List<ConfigError> errors;

    public ConfigException(List<ConfigError> errors)
    {
        super(message(errors));
        this.errors = List.copyOf(errors);
    }

    public List<ConfigError> errors()
    {
        return errors;
    }

    private static String message(List<ConfigError> errors)
    {
        final StringBuilder message = new StringBuilder();
        message.append(errors.size()).append(errors.size() == 1 ? " error" : " errors").append(" in configuration:");
        errors.forEach(error -> message.append("\n  ").append(error));
        return message.toString();
    }
}
