/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.flyweight.plugin.model;

import java.util.List;

/** Every problem found in a set of IDL files, each as {@code file:line:column: message}. */
public final class IdlErrors extends RuntimeException
{
    private static final long serialVersionUID = 1L;

    private final List<String> errors;

    public IdlErrors(List<String> errors)
    {
        super(errors.size() + (errors.size() == 1 ? " error" : " errors") + " in IDL:\n  " + String.join("\n  ", errors));
        this.errors = List.copyOf(errors);
    }

    public List<String> errors()
    {
        return errors;
    }
}
