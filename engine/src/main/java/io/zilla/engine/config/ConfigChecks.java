/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.vault.Vault;

/**
 * What a schema cannot say: that a binding's type is installed, that the type supports its kind, that the
 * exits, vault and guards it names exist, and that each vault's type is installed. The checks read the tree as it
 * is, whether or not it is valid, and skip what is missing or of the wrong shape (the schema reports that).
 */
final class ConfigChecks
{
    private final Map<String, Binding> bindingsByType;
    private final Map<String, Vault> vaultsByType;
    private final SourceMap sources;

    ConfigChecks(Map<String, Binding> bindingsByType, Map<String, Vault> vaultsByType, SourceMap sources)
    {
        this.bindingsByType = bindingsByType;
        this.vaultsByType = vaultsByType;
        this.sources = sources;
    }

    List<ConfigError> check(JsonNode root)
    {
        final List<ConfigError> errors = new ArrayList<>();
        final JsonNode bindings = root.path("bindings");
        if (bindings.isObject())
        {
            final ConfigPath path = ConfigPath.of("bindings");
            for (Map.Entry<String, JsonNode> binding : bindings.properties())
            {
                if (binding.getValue().isObject())
                {
                    checkBinding(root, path.property(binding.getKey()), binding.getValue(), errors);
                }
            }
        }
        checkVaultTypes(root.path("vaults"), errors);
        return errors;
    }

    private void checkVaultTypes(JsonNode vaults, List<ConfigError> errors)
    {
        final ConfigPath path = ConfigPath.of("vaults");
        for (Map.Entry<String, JsonNode> vault : vaults.properties())
        {
            final JsonNode type = vault.getValue().path("type");
            if (type.isTextual() && !vaultsByType.containsKey(type.textValue()))
            {
                final String types = vaultsByType.isEmpty() ? "none" : String.join(", ", new TreeSet<>(vaultsByType.keySet()));
                errors.add(sources.error(path.property(vault.getKey()).property("type"),
                    "unknown vault type '" + type.textValue() + "' (installed: " + types + ")"));
            }
        }
    }

    private void checkBinding(JsonNode root, ConfigPath path, JsonNode binding, List<ConfigError> errors)
    {
        final Binding installed = checkType(path, binding.path("type"), errors);
        if (installed != null)
        {
            checkKind(path, installed, binding.path("kind"), errors);
        }
        checkReference(root.path("vaults"), binding.path("vault"), path.property("vault"), "vault", errors);

        final JsonNode routes = binding.path("routes");
        for (int index = 0; routes.isArray() && index < routes.size(); index++)
        {
            checkRoute(root, path.property("routes").index(index), routes.get(index), errors);
        }
        checkReference(root.path("bindings"), binding.path("exit"), path.property("exit"), "exit", errors);
    }

    /** The installed binding type, or null when it is not installed (or not even a string). */
    private Binding checkType(ConfigPath path, JsonNode type, List<ConfigError> errors)
    {
        final Binding installed = type.isTextual() ? bindingsByType.get(type.textValue()) : null;
        if (type.isTextual() && installed == null)
        {
            final String types = bindingsByType.isEmpty() ? "none" : String.join(", ", new TreeSet<>(bindingsByType.keySet()));
            errors.add(sources.error(path.property("type"),
                "unknown binding type '" + type.textValue() + "' (installed: " + types + ")"));
        }
        return installed;
    }

    private void checkKind(ConfigPath path, Binding installed, JsonNode kind, List<ConfigError> errors)
    {
        final KindConfig known = KindConfig.of(kind.asText());
        if (kind.isTextual() && (known == null || !installed.kinds().contains(known)))
        {
            final TreeSet<String> supported = new TreeSet<>();
            installed.kinds().forEach(supportedKind -> supported.add(supportedKind.yamlName()));
            errors.add(sources.error(path.property("kind"), "type '" + installed.type() + "' does not support kind '"
                + kind.textValue() + "' (supported: " + String.join(", ", supported) + ")"));
        }
    }

    private void checkRoute(JsonNode root, ConfigPath path, JsonNode route, List<ConfigError> errors)
    {
        checkReference(root.path("bindings"), route.path("exit"), path.property("exit"), "exit", errors);

        final JsonNode guarded = route.path("guarded");
        if (guarded.isObject())
        {
            final ConfigPath guardedPath = path.property("guarded");
            for (Map.Entry<String, JsonNode> guard : guarded.properties())
            {
                if (!root.path("guards").has(guard.getKey()))
                {
                    errors.add(sources.error(guardedPath, sources.keyAt(guardedPath.property(guard.getKey())),
                        "unknown guard '" + guard.getKey() + "'"));
                }
            }
        }
    }

    /** A name that must be one of the keys of {@code named}, such as an exit naming a binding. */
    private void checkReference(JsonNode named, JsonNode reference, ConfigPath path, String what, List<ConfigError> errors)
    {
        if (reference.isTextual() && !named.has(reference.textValue()))
        {
            errors.add(sources.error(path, "unknown " + what + " '" + reference.textValue() + "'"));
        }
    }
}
