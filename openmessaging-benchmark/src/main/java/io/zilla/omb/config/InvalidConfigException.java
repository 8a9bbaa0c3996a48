/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

/**
 * A workload or driver file that cannot be run: the message names the file, the field and, when the YAML parser knows
 * it, the line and column ({@code workload.yaml: line 4, column 14: messageSize: must be at least 8, was 4}).
 */
public final class InvalidConfigException extends IllegalArgumentException
{
    private static final long serialVersionUID = 1L;

    public InvalidConfigException(String message)
    {
        super(message);
    }

    public InvalidConfigException(String message, Throwable cause)
    {
        super(message, cause);
    }
}
