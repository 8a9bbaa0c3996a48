/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.idl;

/** A problem in an IDL file, reported as {@code file:line:column: message}. */
public final class IdlException extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final transient Position position;

    public IdlException(Position position, String message)
    {
        super(position + ": " + message);
        this.position = position;
    }

    public Position position()
    {
        return position;
    }
}
