/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.Map;
import java.util.function.UnaryOperator;

import io.zilla.engine.binding.Binding;

/**
 * Reads a zilla.yaml: parses it (jackson-dataformat-yaml, keeping every value's line and column), substitutes
 * {@code ${{env.NAME}}}, validates it against the JSON Schema assembled from {@code specs/core}'s
 * zilla.schema.json and each installed binding type's schema, checks what a schema cannot (unknown exits,
 * kinds a type does not support), and binds it into immutable records. Every problem is reported, not just the
 * first.
 */
public final class ConfigReader
{
    private final Map<String, Binding> bindingsByType;
    private final UnaryOperator<String> environment;

    /**
     * @param bindingsByType the installed binding types
     * @param environment    looks up {@code ${{env.NAME}}}; null for an unset variable
     */
    public ConfigReader(Map<String, Binding> bindingsByType, UnaryOperator<String> environment)
    {
        this.bindingsByType = Map.copyOf(bindingsByType);
        this.environment = environment;
    }

    /**
     * @param location    the file name for error messages, such as {@code zilla.yaml}
     * @param text        the file's text
     * @param namespaceId the high 32 bits of every binding id; a binding's id is {@code namespaceId << 32 | (index + 1)}
     *                    for the binding at {@code index} in file order
     * @throws ConfigException with every problem found
     */
    public NamespaceConfig read(String location, String text, int namespaceId)
    {
        throw new UnsupportedOperationException("not yet written");
    }
}
