/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.vault.Vault;

/**
 * Binds a valid tree into the immutable config records, asking each binding type to bind its own options, route
 * conditions and mapping parameters. A type's adapter may still refuse a value that its schema cannot judge (an
 * address that does not parse, say) by throwing {@link IllegalArgumentException}: that becomes an error at the value.
 */
final class ConfigBinder
{
    private final Map<String, Binding> bindingsByType;
    private final Map<String, Vault> vaultsByType;
    private final Path directory;
    private final SourceMap sources;
    private final List<ConfigError> errors;

    /**
     * @param directory the zilla.yaml's directory, against which a vault or a binding resolves relative paths
     */
    ConfigBinder(Map<String, Binding> bindingsByType, Map<String, Vault> vaultsByType, Path directory, SourceMap sources,
        List<ConfigError> errors)
    {
        this.bindingsByType = bindingsByType;
        this.vaultsByType = vaultsByType;
        this.directory = directory;
        this.sources = sources;
        this.errors = errors;
    }

    NamespaceConfig bind(JsonNode root, int namespaceId)
    {
        final JsonNode bindings = root.path("bindings");
        final Map<String, Long> ids = new HashMap<>();
        int index = 0;
        for (Map.Entry<String, JsonNode> binding : bindings.properties())
        {
            ids.put(binding.getKey(), (long) namespaceId << 32 | ++index);
        }

        final JsonNode telemetry = root.path("telemetry");
        final List<String> metrics = strings(telemetry.path("metrics"));
        final List<BindingConfig> bound = new ArrayList<>();
        for (Map.Entry<String, JsonNode> binding : bindings.properties())
        {
            final String name = binding.getKey();
            bound.add(binding(ConfigPath.of("bindings", name), ids.get(name), name, binding.getValue(), ids, metrics));
        }

        return new NamespaceConfig(root.path("name").textValue(), bound, vaults(root.path("vaults")),
            components(root.path("guards")),
            telemetry.isMissingNode() ? TelemetryConfig.EMPTY : telemetry(telemetry, metrics));
    }

    private static TelemetryConfig telemetry(JsonNode telemetry, List<String> metrics)
    {
        final Map<String, String> attributes = new LinkedHashMap<>();
        telemetry.path("attributes").properties().forEach(a -> attributes.put(a.getKey(), a.getValue().asText()));
        final List<ComponentConfig> exporters = new ArrayList<>();
        for (Map.Entry<String, JsonNode> exporter : telemetry.path("exporters").properties())
        {
            final String type = exporter.getValue().path("type").textValue();
            final JsonNode value = exporter.getValue().path("options");
            final OptionsConfig options = TelemetryConfig.PROMETHEUS.equals(type) ? prometheus(value)
                : TelemetryConfig.OTLP.equals(type) ? otlp(value)
                : null;
            exporters.add(new ComponentConfig(exporter.getKey(), type, options));
        }
        return new TelemetryConfig(attributes, metrics, exporters);
    }

    private static PrometheusOptionsConfig prometheus(JsonNode options)
    {
        final List<PrometheusOptionsConfig.Endpoint> endpoints = new ArrayList<>();
        for (JsonNode endpoint : options.path("endpoints"))
        {
            endpoints.add(new PrometheusOptionsConfig.Endpoint(endpoint.path("scheme").asText("http"),
                endpoint.path("port").asInt(), endpoint.path("path").asText(PrometheusOptionsConfig.DEFAULT_PATH)));
        }
        return new PrometheusOptionsConfig(endpoints);
    }

    private static OtlpOptionsConfig otlp(JsonNode options)
    {
        final JsonNode endpoint = options.path("endpoint");
        final Map<String, String> headers = new LinkedHashMap<>();
        endpoint.path("headers").properties().forEach(header -> headers.put(header.getKey(), header.getValue().asText()));
        final JsonNode signals = options.path("signals");
        return new OtlpOptionsConfig(options.path("interval").asInt(OtlpOptionsConfig.DEFAULT_INTERVAL),
            signals.isMissingNode() ? OtlpOptionsConfig.DEFAULT_SIGNALS : strings(signals),
            new OtlpOptionsConfig.Endpoint(endpoint.path("protocol").asText(OtlpOptionsConfig.HTTP),
                endpoint.path("location").asText(),
                new OtlpOptionsConfig.Overrides(
                    endpoint.path("overrides").path(OtlpOptionsConfig.METRICS).asText(OtlpOptionsConfig.DEFAULT_METRICS_PATH),
                    endpoint.path("overrides").path(OtlpOptionsConfig.LOGS).asText(OtlpOptionsConfig.DEFAULT_LOGS_PATH)),
                headers));
    }

    private static List<String> strings(JsonNode array)
    {
        final List<String> strings = new ArrayList<>();
        array.forEach(item -> strings.add(item.asText()));
        return strings;
    }

    private BindingConfig binding(ConfigPath path, long id, String name, JsonNode binding, Map<String, Long> ids,
        List<String> metrics)
    {
        final Binding type = bindingsByType.get(binding.path("type").textValue());
        final KindConfig kind = KindConfig.of(binding.path("kind").textValue());
        final JsonNode options = binding.get("options");
        final OptionsConfig boundOptions = options != null
            ? adapt(path.property("options"), () -> type.options(kind, options, directory))
            : null;

        final List<RouteConfig> routes = new ArrayList<>();
        final JsonNode routesNode = binding.path("routes");
        for (int order = 0; order < routesNode.size(); order++)
        {
            routes.add(route(path.property("routes").index(order), order, type, kind, routesNode.get(order), ids));
        }
        final JsonNode exit = binding.get("exit");
        if (exit != null)
        {
            routes.add(new RouteConfig(routes.size(), List.of(), null, exit.textValue(), ids.get(exit.textValue()), Map.of()));
        }

        final String typeName = binding.path("type").textValue();
        return new BindingConfig(id, name, typeName, kind, binding.path("vault").textValue(), boundOptions, routes,
            TelemetryConfig.selected(metrics, strings(binding.path("telemetry").path("metrics")),
                TelemetryConfig.recordable(type)), attributes(binding.path("telemetry").path("attributes")));
    }

    private static Map<String, String> attributes(JsonNode attributes)
    {
        final Map<String, String> bound = new LinkedHashMap<>();
        attributes.properties().forEach(attribute -> bound.put(attribute.getKey(), attribute.getValue().asText()));
        return bound;
    }

    private RouteConfig route(ConfigPath path, int order, Binding type, KindConfig kind, JsonNode route, Map<String, Long> ids)
    {
        final List<ConditionConfig> when = new ArrayList<>();
        final JsonNode conditions = route.path("when");
        for (int index = 0; index < conditions.size(); index++)
        {
            final ConfigPath conditionPath = path.property("when").index(index);
            final JsonNode condition = conditions.get(index);
            final int errorsBefore = errors.size();
            final ConditionConfig bound = adapt(conditionPath, () -> type.condition(kind, condition));
            if (bound != null)
            {
                when.add(bound);
            }
            else if (errors.size() == errorsBefore)
            {
                // a condition the type cannot bind would otherwise vanish and the route would match everything
                errors.add(sources.error(conditionPath, "type '" + type.type() + "' has no route conditions"));
            }
        }

        final JsonNode with = route.get("with");
        final WithConfig boundWith = with != null ? adapt(path.property("with"), () -> type.with(kind, with)) : null;

        final Map<String, List<String>> guarded = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> guard : route.path("guarded").properties())
        {
            final List<String> roles = new ArrayList<>();
            guard.getValue().forEach(role -> roles.add(role.textValue()));
            guarded.put(guard.getKey(), roles);
        }

        // a route of a kind without exits (a tcp client) has none
        final String exit = route.path("exit").textValue();
        return new RouteConfig(order, when, boundWith, exit, exit != null ? ids.get(exit) : 0L, guarded);
    }

    private <T> T adapt(ConfigPath path, Supplier<T> adapter)
    {
        try
        {
            return adapter.get();
        }
        catch (ConfigValueException ex)
        {
            errors.add(sources.error(path.properties(ex.path()), ex.getMessage()));
            return null;
        }
        catch (IllegalArgumentException ex)
        {
            errors.add(sources.error(path, ex.getMessage()));
            return null;
        }
    }

    private List<ComponentConfig> vaults(JsonNode vaults)
    {
        final List<ComponentConfig> bound = new ArrayList<>();
        for (Map.Entry<String, JsonNode> vault : vaults.properties())
        {
            final String name = vault.getKey();
            final String typeName = vault.getValue().path("type").textValue();
            final Vault type = vaultsByType.get(typeName);
            final JsonNode options = vault.getValue().get("options");
            final OptionsConfig boundOptions = options != null
                ? adapt(ConfigPath.of("vaults", name, "options"), () -> type.options(options, directory))
                : null;
            bound.add(new ComponentConfig(name, typeName, boundOptions));
        }
        return bound;
    }

    private static List<ComponentConfig> components(JsonNode components)
    {
        final List<ComponentConfig> bound = new ArrayList<>();
        for (Map.Entry<String, JsonNode> component : components.properties())
        {
            bound.add(new ComponentConfig(component.getKey(), component.getValue().path("type").textValue(), null));
        }
        return bound;
    }
}
