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
 * exits, vault and guards it names exist, that no exit leads back to where it came from, and that each vault's type
 * is installed. The checks read the tree as it
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
        checkGuards(root.path("guards"), errors);
        checkTelemetry(root.path("telemetry"), errors);
        new ExitLoops(bindings, binding -> hasExits(bindingsByType, binding), sources, errors).check();
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

    /**
     * No guard type is installed yet: a guard would be accepted and a route it guards served to everyone, so any
     * guard is refused, as an unknown binding type is.
     */
    private void checkGuards(JsonNode guards, List<ConfigError> errors)
    {
        final ConfigPath path = ConfigPath.of("guards");
        for (Map.Entry<String, JsonNode> guard : guards.properties())
        {
            final JsonNode type = guard.getValue().path("type");
            if (type.isTextual())
            {
                errors.add(sources.error(path.property(guard.getKey()).property("type"),
                    "unknown guard type '" + type.textValue() + "' (installed: none)"));
            }
        }
    }

    /**
     * What the engine does with telemetry so far: it keeps every counter (zilla metrics prints them) and drains the
     * events to stdout exporters. Whatever else the format allows would be accepted and do nothing, so it is refused.
     */
    private void checkTelemetry(JsonNode telemetry, List<ConfigError> errors)
    {
        final ConfigPath path = ConfigPath.of("telemetry");
        // only where the schema has nothing to say of the value's shape
        if (telemetry.path("metrics").isArray())
        {
            errors.add(sources.error(path.property("metrics"), "metrics cannot be chosen yet: no installed exporter "
                + "exports metrics (zilla keeps every counter, and zilla metrics prints them)"));
        }
        if (telemetry.path("attributes").isObject())
        {
            errors.add(sources.error(path.property("attributes"), "attributes cannot be set yet: no installed exporter "
                + "exports metrics, and events carry none"));
        }
        for (Map.Entry<String, JsonNode> exporter : telemetry.path("exporters").properties())
        {
            final ConfigPath exporterPath = path.property("exporters").property(exporter.getKey());
            final JsonNode type = exporter.getValue().path("type");
            if (type.isTextual() && !TelemetryConfig.EXPORTER_TYPES.contains(type.textValue()))
            {
                errors.add(sources.error(exporterPath.property("type"), "unknown exporter type '" + type.textValue()
                    + "' (installed: " + String.join(", ", new TreeSet<>(TelemetryConfig.EXPORTER_TYPES)) + ")"));
            }
            else if (TelemetryConfig.STDOUT.equals(type.textValue()) && exporter.getValue().has("options"))
            {
                errors.add(sources.error(exporterPath.property("options"), "a stdout exporter has no options"));
            }
        }
    }

    private void checkBinding(JsonNode root, ConfigPath path, JsonNode binding, List<ConfigError> errors)
    {
        final Binding installed = checkType(path, binding.path("type"), errors);
        final boolean hasExits = installed == null || !checkKind(path, installed, binding.path("kind"), errors)
            || installed.hasExits(KindConfig.of(binding.path("kind").textValue()));
        checkReference(root.path("vaults"), binding.path("vault"), path.property("vault"), "vault", errors);

        // a kind without exits ends the streams it takes: an exit there would be ignored, so it is refused
        final String noExits = hasExits ? null : Messages.article(installed.type()) + " " + installed.type() + " "
            + binding.path("kind").textValue() + " has no exits: it ends the streams it takes";
        final JsonNode routes = binding.path("routes");
        for (int index = 0; routes.isArray() && index < routes.size(); index++)
        {
            checkRoute(root, path.property("routes").index(index), routes.get(index), noExits, errors);
        }
        if (noExits == null)
        {
            checkReference(root.path("bindings"), binding.path("exit"), path.property("exit"), "exit", errors);
        }
        else if (binding.has("exit"))
        {
            // at the key, where a schema that forbids it reports it: the one message says why
            errors.add(sources.error(path.property("exit"), sources.keyAt(path.property("exit")), noExits));
        }
    }

    /** Whether a binding of the type and kind at {@code binding} sends streams on to exits (Binding.hasExits). */
    static boolean hasExits(Map<String, Binding> bindingsByType, JsonNode binding)
    {
        final Binding type = bindingsByType.get(binding.path("type").asText());
        final KindConfig kind = KindConfig.of(binding.path("kind").asText());
        return type == null || kind == null || type.hasExits(kind);
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

    /** Whether the binding's kind is one its type supports; reports it when it is a string and is not. */
    private boolean checkKind(ConfigPath path, Binding installed, JsonNode kind, List<ConfigError> errors)
    {
        final KindConfig known = KindConfig.of(kind.asText());
        final boolean supported = kind.isTextual() && known != null && installed.kinds().contains(known);
        if (kind.isTextual() && !supported)
        {
            final TreeSet<String> supportedKinds = new TreeSet<>();
            installed.kinds().forEach(supportedKind -> supportedKinds.add(supportedKind.yamlName()));
            errors.add(sources.error(path.property("kind"), "type '" + installed.type() + "' does not support kind '"
                + kind.textValue() + "' (supported: " + String.join(", ", supportedKinds) + ")"));
        }
        return supported;
    }

    /** @param noExits why the binding's routes may have no exit, or null when they must have one */
    private void checkRoute(JsonNode root, ConfigPath path, JsonNode route, String noExits, List<ConfigError> errors)
    {
        if (noExits != null && route.has("exit"))
        {
            errors.add(sources.error(path.property("exit"), sources.keyAt(path.property("exit")), noExits));
        }
        else if (noExits == null && route.isObject() && !route.has("exit"))
        {
            errors.add(sources.error(path, "missing required property 'exit'"));
        }
        else
        {
            checkReference(root.path("bindings"), route.path("exit"), path.property("exit"), "exit", errors);
        }

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
