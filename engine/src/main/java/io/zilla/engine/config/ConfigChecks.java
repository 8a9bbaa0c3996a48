/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.metrics.EngineMetrics;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.MetricKind;
import io.zilla.engine.vault.Vault;

/**
 * What a schema cannot say: that a binding's type is installed, that the type supports its kind, that the
 * exits, vault and guards it names exist, that no exit leads back to where it came from, and that each vault's type
 * is installed. The checks read the tree as it
 * is, whether or not it is valid, and skip what is missing or of the wrong shape (the schema reports that).
 */
final class ConfigChecks
{
    /** The labels the exporters give series themselves: an attribute of one of these names would repeat one. */
    private static final Set<String> RESERVED_LABELS = Set.of("namespace", "binding", "le", "api", "reason");
    private static final String OTLP_LOCATION = "the collector's http(s) URI, such as http://otel-collector:4318";

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
     * Telemetry the engine would otherwise ignore: a metric name that selects no metric zilla records, and the
     * exporter options the schema cannot check (a prometheus endpoint's port, scheme and path, one port each; an otlp
     * exporter's interval, signals and endpoint).
     */
    private void checkTelemetry(JsonNode telemetry, List<ConfigError> errors)
    {
        final ConfigPath path = ConfigPath.of("telemetry");
        final JsonNode metrics = telemetry.path("metrics");
        for (int index = 0; metrics.isArray() && index < metrics.size(); index++)
        {
            final JsonNode metric = metrics.get(index);
            if (metric.isTextual() && !selectsAny(metric.textValue(), installedMetrics()))
            {
                errors.add(sources.error(path.property("metrics").index(index), "unknown metric '" + metric.textValue()
                    + "' (installed: " + String.join(", ", installedMetrics()) + ")"));
            }
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
            else if (TelemetryConfig.PROMETHEUS.equals(type.textValue()))
            {
                checkPrometheus(exporterPath, exporter.getValue(), errors);
            }
            else if (TelemetryConfig.OTLP.equals(type.textValue()))
            {
                checkOtlp(exporterPath, exporter.getValue(), errors);
            }
        }
    }

    /**
     * An otlp exporter pushes only what is built: the metrics and logs signals over OTLP/HTTP, to a location that is an
     * http(s) URI, every interval of at least one second. Anything else it would not do is refused.
     */
    private void checkOtlp(ConfigPath path, JsonNode exporter, List<ConfigError> errors)
    {
        final JsonNode options = exporter.path("options");
        final ConfigPath optionsPath = path.property("options");
        if (!options.isObject() || !options.path("endpoint").isObject())
        {
            final ConfigPath at = options.isObject() ? optionsPath : path;
            errors.add(sources.error(at, "an otlp exporter needs options.endpoint.location: " + OTLP_LOCATION));
            if (!options.isObject())
            {
                return;
            }
        }
        checkKnown(optionsPath, options, "option", Set.of("interval", "signals", "endpoint"), errors);
        final JsonNode interval = options.path("interval");
        if (!interval.isMissingNode() && (!interval.isIntegralNumber() || !interval.canConvertToInt() || interval.intValue() < 1))
        {
            errors.add(sources.error(optionsPath.property("interval"), "an interval is a whole number of seconds, at least 1, "
                + "not " + interval.asText()));
        }
        checkOtlpSignals(optionsPath.property("signals"), options.path("signals"), errors);
        final JsonNode endpoint = options.path("endpoint");
        if (endpoint.isObject())
        {
            checkOtlpEndpoint(optionsPath.property("endpoint"), endpoint, errors);
        }
    }

    private void checkOtlpSignals(ConfigPath path, JsonNode signals, List<ConfigError> errors)
    {
        if (signals.isMissingNode())
        {
            return;
        }
        if (!signals.isArray() || signals.isEmpty())
        {
            errors.add(sources.error(path, "signals is a list of at least one signal, such as [metrics]"));
            return;
        }
        final Set<String> seen = new HashSet<>();
        for (int index = 0; index < signals.size(); index++)
        {
            final String signal = signals.get(index).asText();
            if (!OtlpOptionsConfig.DEFAULT_SIGNALS.contains(signal))
            {
                errors.add(sources.error(path.index(index), "unknown signal '" + signal + "' (known: metrics, logs)"));
            }
            else if (!seen.add(signal))
            {
                errors.add(sources.error(path.index(index), "signal '" + signal + "' is listed twice"));
            }
        }
    }

    private void checkOtlpEndpoint(ConfigPath path, JsonNode endpoint, List<ConfigError> errors)
    {
        checkKnown(path, endpoint, "endpoint property", Set.of("protocol", "location", "overrides", "headers"), errors);
        final JsonNode protocol = endpoint.path("protocol");
        if (!protocol.isMissingNode() && !OtlpOptionsConfig.HTTP.equals(protocol.asText()))
        {
            errors.add(sources.error(path.property("protocol"), "unknown protocol '" + protocol.asText()
                + "' (known: http)"));
        }
        final JsonNode location = endpoint.path("location");
        if (location.isMissingNode())
        {
            errors.add(sources.error(path, "an otlp endpoint needs a location: " + OTLP_LOCATION));
        }
        else if (!location.isTextual() || !isHttpUri(location.textValue()))
        {
            errors.add(sources.error(path.property("location"), "a location is " + OTLP_LOCATION + ", not '"
                + location.asText() + "'"));
        }
        final JsonNode overrides = endpoint.path("overrides");
        if (!overrides.isMissingNode() && !overrides.isObject())
        {
            errors.add(sources.error(path.property("overrides"), "overrides is a map of signals to paths, such as "
                + "{metrics: /v1/metrics}"));
        }
        for (Map.Entry<String, JsonNode> override : overrides.properties())
        {
            final ConfigPath overridePath = path.property("overrides").property(override.getKey());
            final String value = override.getValue().asText();
            if (!OtlpOptionsConfig.DEFAULT_SIGNALS.contains(override.getKey()))
            {
                errors.add(sources.error(overridePath, "unknown override '" + override.getKey()
                    + "' (known: metrics, logs)"));
            }
            else if (!override.getValue().isTextual() || !value.startsWith("/") && !isHttpUri(value))
            {
                final String example = OtlpOptionsConfig.LOGS.equals(override.getKey())
                    ? OtlpOptionsConfig.DEFAULT_LOGS_PATH
                    : OtlpOptionsConfig.DEFAULT_METRICS_PATH;
                errors.add(sources.error(overridePath, "an override is a path such as " + example + ", or an http(s) "
                    + "URI, not '" + value + "'"));
            }
        }
        final JsonNode headers = endpoint.path("headers");
        if (!headers.isMissingNode() && !headers.isObject())
        {
            errors.add(sources.error(path.property("headers"), "headers is a map of header names to values"));
        }
        for (Map.Entry<String, JsonNode> header : headers.properties())
        {
            if (!header.getValue().isValueNode() || header.getValue().isNull())
            {
                errors.add(sources.error(path.property("headers").property(header.getKey()), "a header's value is a "
                    + "string"));
            }
        }
    }

    private void checkKnown(ConfigPath path, JsonNode node, String what, Set<String> known, List<ConfigError> errors)
    {
        for (Map.Entry<String, JsonNode> property : node.properties())
        {
            if (!known.contains(property.getKey()))
            {
                errors.add(sources.error(path.property(property.getKey()), "unknown " + what + " '" + property.getKey()
                    + "' (known: " + String.join(", ", new TreeSet<>(known)) + ")"));
            }
        }
    }

    private static boolean isHttpUri(String value)
    {
        try
        {
            final URI uri = new URI(value);
            return ("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) && uri.getHost() != null;
        }
        catch (URISyntaxException ex)
        {
            return false;
        }
    }

    private void checkPrometheus(ConfigPath path, JsonNode exporter, List<ConfigError> errors)
    {
        final JsonNode endpoints = exporter.path("options").path("endpoints");
        if (!endpoints.isArray() || endpoints.isEmpty())
        {
            final ConfigPath at = exporter.path("options").isObject() ? path.property("options") : path;
            errors.add(sources.error(at, "a prometheus exporter needs options.endpoints: at least one "
                + "{scheme: http, port, path}"));
            return;
        }
        final Map<Integer, Integer> ports = new HashMap<>();
        for (int index = 0; index < endpoints.size(); index++)
        {
            final ConfigPath endpointPath = path.property("options").property("endpoints").index(index);
            final JsonNode endpoint = endpoints.get(index);
            if (!endpoint.isObject())
            {
                errors.add(sources.error(endpointPath, "an endpoint is {scheme: http, port, path}"));
                continue;
            }
            for (Map.Entry<String, JsonNode> property : endpoint.properties())
            {
                if (!Set.of("scheme", "port", "path").contains(property.getKey()))
                {
                    errors.add(sources.error(endpointPath.property(property.getKey()), "unknown endpoint property '"
                        + property.getKey() + "' (known: scheme, port, path)"));
                }
            }
            final JsonNode scheme = endpoint.path("scheme");
            if (scheme.isMissingNode())
            {
                // required, as in Zilla, so that the file still says the same when https is added
                errors.add(sources.error(endpointPath, "a prometheus endpoint needs a scheme: http"));
            }
            else if (!"http".equals(scheme.asText()))
            {
                errors.add(sources.error(endpointPath.property("scheme"), "unknown scheme '" + scheme.asText()
                    + "' (known: http)"));
            }
            final JsonNode endpointPathValue = endpoint.path("path");
            final boolean absolute = endpointPathValue.isTextual() && endpointPathValue.textValue().startsWith("/");
            if (!endpointPathValue.isMissingNode() && !absolute)
            {
                errors.add(sources.error(endpointPath.property("path"), "a path starts with /, such as /metrics"));
            }
            final JsonNode port = endpoint.path("port");
            if (port.isMissingNode())
            {
                errors.add(sources.error(endpointPath, "a prometheus endpoint needs a port"));
            }
            else if (!port.canConvertToInt() || !port.isIntegralNumber() || port.intValue() < 1 || port.intValue() > 65535)
            {
                errors.add(sources.error(endpointPath.property("port"), "a port is 1 to 65535, not " + port.asText()));
            }
            else
            {
                final Integer other = ports.putIfAbsent(port.intValue(), index);
                if (other != null)
                {
                    errors.add(sources.error(endpointPath.property("port"), "port " + port.intValue()
                        + " is endpoints[" + other + "]'s already: each endpoint needs its own port"));
                }
            }
        }
    }

    /**
     * A binding's metrics: each must name a metric zilla records, and one the namespace's telemetry.metrics
     * selects, or it would silently record nothing.
     */
    private void checkBindingTelemetry(JsonNode root, ConfigPath path, JsonNode binding, Binding type,
        List<ConfigError> errors)
    {
        final JsonNode metrics = binding.path("telemetry").path("metrics");
        final JsonNode declared = root.path("telemetry").path("metrics");
        for (int index = 0; metrics.isArray() && index < metrics.size(); index++)
        {
            final JsonNode metric = metrics.get(index);
            if (!metric.isTextual())
            {
                continue;
            }
            final ConfigPath metricPath = path.property("telemetry").property("metrics").index(index);
            final List<String> recordable = TelemetryConfig.recordable(type);
            if (!selectsAny(metric.textValue(), installedMetrics()))
            {
                errors.add(sources.error(metricPath, "unknown metric '" + metric.textValue() + "' (installed: "
                    + String.join(", ", installedMetrics()) + ")"));
            }
            else if (type != null && !selectsAny(metric.textValue(), recordable))
            {
                errors.add(sources.error(metricPath, "'" + metric.textValue() + "' selects no metric "
                    + Messages.article(type.type()) + " " + type.type() + " binding records (it records: "
                    + String.join(", ", recordable) + ")"));
            }
            else if (!selectsDeclared(metric.textValue(), declared, recordable))
            {
                errors.add(sources.error(metricPath, "'" + metric.textValue() + "' selects no metric of "
                    + "telemetry.metrics: a binding records only metrics the namespace declares"));
            }
        }
        checkBindingAttributes(root, path.property("telemetry").property("attributes"), binding, type, errors);
    }

    /**
     * A binding's attributes: each an expression its type resolves per request, each expression once, and only where
     * the binding records a histogram for them to label; otherwise they would silently label nothing.
     */
    private void checkBindingAttributes(JsonNode root, ConfigPath path, JsonNode binding, Binding type,
        List<ConfigError> errors)
    {
        final JsonNode attributes = binding.path("telemetry").path("attributes");
        if (type == null || !attributes.isObject() || attributes.isEmpty())
        {
            return;
        }
        final int errorsBefore = errors.size();
        final List<String> known = type.attributes();
        final Set<String> namespaceLabels = new TreeSet<>();
        root.path("telemetry").path("attributes").fieldNames()
            .forEachRemaining(name -> namespaceLabels.add(name.replace('.', '_')));
        final Map<String, String> seen = new HashMap<>();
        for (Map.Entry<String, JsonNode> attribute : attributes.properties())
        {
            final String expression = attribute.getValue().asText();
            final ConfigPath attributePath = path.property(attribute.getKey());
            final String label = attribute.getKey().replace('.', '_');
            if (RESERVED_LABELS.contains(label) || namespaceLabels.contains(label))
            {
                // two labels of one name would make every scrape of the series fail
                errors.add(sources.error(attributePath, "'" + attribute.getKey() + "' is a label of every series already ("
                    + (RESERVED_LABELS.contains(label) ? "the exporters' own" : "telemetry.attributes") + ")"));
            }
            else if (!known.contains(expression))
            {
                errors.add(sources.error(attributePath, known.isEmpty()
                    ? Messages.article(type.type()) + " " + type.type() + " binding has no attributes"
                    : "unknown expression '" + expression + "' for " + Messages.article(type.type()) + " " + type.type()
                        + " binding (known: " + String.join(", ", known) + ")"));
            }
            else if (seen.putIfAbsent(expression, attribute.getKey()) != null)
            {
                errors.add(sources.error(attributePath, "'" + expression + "' is attribute '" + seen.get(expression)
                    + "' already: each expression labels once"));
            }
        }
        final List<String> patterns = new ArrayList<>();
        binding.path("telemetry").path("metrics").forEach(metric -> patterns.add(metric.asText()));
        final List<String> histograms = type.metrics().stream()
            .filter(metric -> metric.kind() == MetricKind.HISTOGRAM)
            .map(Metric::name)
            .toList();
        if (errors.size() == errorsBefore && histograms.stream().noneMatch(name -> TelemetryConfig.selects(patterns, name)))
        {
            errors.add(sources.error(path, "attributes label the binding's histograms, and its telemetry.metrics selects "
                + "none (" + String.join(", ", histograms) + ")"));
        }
    }

    /** The metrics of the engine and of every installed binding type, each name once. */
    private List<String> installedMetrics()
    {
        return List.copyOf(EngineMetrics.declared(bindingsByType.values()).keySet());
    }

    private static boolean selectsAny(String pattern, List<String> metrics)
    {
        return metrics.stream().anyMatch(metric -> TelemetryConfig.selects(pattern, metric));
    }

    private static boolean selectsDeclared(String pattern, JsonNode declared, List<String> recordable)
    {
        final List<String> patterns = new ArrayList<>();
        declared.forEach(item -> patterns.add(item.asText()));
        return recordable.stream()
            .anyMatch(metric -> TelemetryConfig.selects(pattern, metric) && TelemetryConfig.selects(patterns, metric));
    }

    private void checkBinding(JsonNode root, ConfigPath path, JsonNode binding, List<ConfigError> errors)
    {
        final Binding installed = checkType(path, binding.path("type"), errors);
        final boolean hasExits = installed == null || !checkKind(path, installed, binding.path("kind"), errors)
            || installed.hasExits(KindConfig.of(binding.path("kind").textValue()));
        checkReference(root.path("vaults"), binding.path("vault"), path.property("vault"), "vault", errors);
        checkBindingTelemetry(root, path, binding, installed, errors);

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
