/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.vault.Vault;

/**
 * Reads a zilla.yaml: parses it (jackson-dataformat-yaml, keeping every value's line and column), substitutes
 * {@code ${{env.NAME}}}, validates it against the JSON Schema assembled from {@code specs/core}'s
 * zilla.schema.json and each installed binding type's schema, checks what a schema cannot (unknown exits,
 * kinds a type does not support, loops of exits), binds it into immutable records, and lets each type check its
 * bindings against the others (a tcp client aimed at the file's own tcp server). Every problem is reported, not just
 * the first.
 */
public final class ConfigReader
{
    private static final Comparator<ConfigError> IN_FILE_ORDER = Comparator.comparingInt(ConfigError::line)
        .thenComparingInt(ConfigError::column)
        .thenComparing(ConfigError::path)
        .thenComparing(ConfigError::message);

    private final Map<String, Binding> bindingsByType;
    private final Map<String, Vault> vaultsByType;
    private final UnaryOperator<String> environment;
    private final ConfigSchema schema;

    /**
     * A reader that knows no vault type: a file with a vault is refused.
     *
     * @param bindingsByType the installed binding types
     * @param environment    looks up {@code ${{env.NAME}}}; null for an unset variable
     * @throws IllegalStateException when the core schema or a type's schema cannot be read
     */
    public ConfigReader(Map<String, Binding> bindingsByType, UnaryOperator<String> environment)
    {
        this(bindingsByType, Map.of(), environment);
    }

    /**
     * @param bindingsByType the installed binding types
     * @param vaultsByType   the installed vault types
     * @param environment    looks up {@code ${{env.NAME}}}; null for an unset variable
     * @throws IllegalStateException when the core schema or a type's schema cannot be read
     */
    public ConfigReader(Map<String, Binding> bindingsByType, Map<String, Vault> vaultsByType, UnaryOperator<String> environment)
    {
        this.bindingsByType = Map.copyOf(bindingsByType);
        this.vaultsByType = Map.copyOf(vaultsByType);
        this.environment = environment;
        this.schema = new ConfigSchema(this.bindingsByType, this.vaultsByType);
    }

    /**
     * @param location    the file name for error messages, such as {@code zilla.yaml}; its directory (the working
     *                    directory when it has none) is where a vault's relative paths start
     * @param text        the file's text
     * @param namespaceId the high 32 bits of every binding id; a binding's id is {@code namespaceId << 32 | (index + 1)}
     *                    for the binding at {@code index} in file order
     * @throws ConfigException with every problem found
     */
    public NamespaceConfig read(String location, String text, int namespaceId)
    {
        final List<ConfigError> errors = new ArrayList<>();
        final SourceMap sources = new SourceMap(location);
        final JsonNode parsed = new YamlTreeReader(text, sources, errors).read();
        if (parsed == null)
        {
            // not YAML: there is no tree to check any further
            throw failure(errors);
        }

        final JsonNode root = new EnvironmentSubstitution(environment, sources, errors).substitute(parsed);

        // an earlier stage's error says more than a later one's about the same value: an unset variable rather than
        // "must be an integer", an unknown binding type rather than "must be one of", an alias rather than its name
        addUnexplained(errors, new ConfigChecks(bindingsByType, vaultsByType, sources).check(root));
        addUnexplained(errors, new SchemaErrors(sources).translate(schema.validate(root)));
        if (!errors.isEmpty())
        {
            throw failure(errors);
        }

        // the types' adapters see only a valid document, and may still refuse a value (a vault, a store it cannot load)
        final NamespaceConfig namespace = new ConfigBinder(bindingsByType, vaultsByType, directory(location), sources, errors)
            .bind(root, namespaceId);
        if (errors.isEmpty())
        {
            checkAcrossBindings(namespace, sources, errors);
        }
        if (!errors.isEmpty())
        {
            throw failure(errors);
        }
        return namespace;
    }

    /** What each type says of its bindings in the light of the others (Binding.check). */
    private void checkAcrossBindings(NamespaceConfig namespace, SourceMap sources, List<ConfigError> errors)
    {
        for (BindingConfig binding : namespace.bindings())
        {
            final Binding type = bindingsByType.get(binding.type());
            for (ConfigValueException problem : type.check(binding, namespace))
            {
                errors.add(sources.error(ConfigPath.of("bindings", binding.name()).properties(problem.path()),
                    problem.getMessage()));
            }
        }
    }

    private static Path directory(String location)
    {
        final Path working = Path.of("").toAbsolutePath();
        try
        {
            final Path parent = working.resolve(location).normalize().getParent();
            return parent != null ? parent : working;
        }
        catch (InvalidPathException ex)
        {
            // a location that is only a label, such as "<demo>"
            return working;
        }
    }

    private static ConfigException failure(List<ConfigError> errors)
    {
        final List<ConfigError> sorted = new ArrayList<>(errors);
        sorted.sort(IN_FILE_ORDER);
        return new ConfigException(sorted);
    }

    private static void addUnexplained(List<ConfigError> errors, List<ConfigError> later)
    {
        final Set<String> explained = new HashSet<>();
        errors.forEach(error -> explained.add(place(error)));
        later.stream().filter(error -> !explained.contains(place(error))).forEach(errors::add);
    }

    private static String place(ConfigError error)
    {
        return error.line() + ":" + error.column() + " " + error.path();
    }
}
