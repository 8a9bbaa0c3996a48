/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.vault;

import java.net.URL;
import java.nio.file.Path;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.config.ComponentConfig;
import io.zilla.engine.config.OptionsConfig;

/**
 * A vault type in one engine: what zilla.yaml may say of it (its schema), how its {@code options} are bound, and a
 * {@link VaultHandler} per vault that gives bindings their keys and certificates.
 */
public interface Vault
{
    String type();

    /**
     * The JSON Schema of a vault of this type ({@code <type>.schema.json}), applied to the whole vault entry
     * ({@code type} and {@code options}) when the entry is of this type; null when the type takes no options.
     */
    URL schema();

    /**
     * Binds validated {@code options}, while the zilla.yaml is read: a vault that keeps its material in files reads
     * them here, so that a store that cannot be loaded is a configuration error with its line and column (and
     * {@code zilla validate} finds it). Refuse a value by throwing {@link IllegalArgumentException}, or
     * {@link io.zilla.engine.config.ConfigValueException} to name the option inside {@code options}.
     *
     * @param options   the vault's {@code options}, after {@code ${{env.NAME}}} substitution
     * @param directory the directory of the zilla.yaml, which relative paths are resolved against
     * @return its immutable record, or null when the type has no options
     */
    default OptionsConfig options(JsonNode options, Path directory)
    {
        return null;
    }

    /**
     * Called when the namespace attaches, before any binding attaches, off the workers: the handler is then shared
     * by every worker, so it must be immutable (or thread-safe).
     */
    VaultHandler attach(ComponentConfig vault);
}
