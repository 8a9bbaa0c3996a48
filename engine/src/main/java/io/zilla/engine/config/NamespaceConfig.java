/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.List;

/**
 * A whole zilla.yaml, validated and bound.
 *
 * @param name      the {@code name} at the top of the file
 * @param bindings  the bindings in file order
 * @param vaults    the vaults
 * @param guards    the guards
 * @param telemetry the telemetry section
 */
public record NamespaceConfig(String name, List<BindingConfig> bindings, List<ComponentConfig> vaults,
    List<ComponentConfig> guards, TelemetryConfig telemetry)
{
    public NamespaceConfig
    {
        bindings = List.copyOf(bindings);
        vaults = List.copyOf(vaults);
        guards = List.copyOf(guards);
    }

    public BindingConfig binding(String bindingName)
    {
        for (BindingConfig binding : bindings)
        {
            if (binding.name().equals(bindingName))
            {
                return binding;
            }
        }
        return null;
    }
}
