/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.prometheus;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingFactorySpi;
import io.zilla.engine.metrics.EngineMetrics;
import io.zilla.engine.metrics.Metric;
import io.zilla.engine.metrics.PrometheusNames;

/** The Grafana dashboard shipped in helm/zilla/dashboards, read as tests need it. */
final class Dashboard
{
    // tests run in the module directory
    static final Path FILE = Path.of("..", "..", "helm", "zilla", "dashboards", "zilla.json");

    private static final Pattern SERIES = Pattern.compile("([a-z_][a-z0-9_]*)\\{");

    private Dashboard()
    {
    }

    /** Every panel's PromQL, in order. */
    static List<String> expressions() throws IOException
    {
        final JsonNode dashboard = new ObjectMapper().readTree(FILE.toFile());
        final List<String> expressions = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels"))
        {
            for (JsonNode target : panel.path("targets"))
            {
                expressions.add(target.path("expr").asText());
            }
        }
        return expressions;
    }

    /** The expression as Prometheus runs it with every binding and namespace chosen, as Grafana's "All" does. */
    static String resolved(String expression)
    {
        return expression.replace("$namespace", ".*").replace("$binding", ".*").replace("$__rate_interval", "1m");
    }

    /** The series names an expression reads: a name followed by its label matchers. */
    static Set<String> series(String expression)
    {
        final Set<String> names = new LinkedHashSet<>();
        final Matcher matcher = SERIES.matcher(expression);
        while (matcher.find())
        {
            names.add(matcher.group(1));
        }
        return names;
    }

    /** Every series name the prometheus exporter can serve for the binding types on the class path. */
    static Set<String> exportable()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final List<Binding> types = new ArrayList<>();
        ServiceLoader.load(BindingFactorySpi.class).forEach(factory -> types.add(factory.create(configuration)));
        final Set<String> names = new LinkedHashSet<>();
        for (Metric metric : EngineMetrics.declared(types).values())
        {
            final String named = PrometheusNames.base(metric);
            switch (metric.kind())
            {
                case COUNTER -> names.add(named + "_total");
                case GAUGE -> names.add(named);
                case HISTOGRAM ->
                {
                    names.add(named + "_bucket");
                    names.add(named + "_sum");
                    names.add(named + "_count");
                }
                default -> throw new IllegalStateException(metric.kind().toString());
            }
        }
        return names;
    }
}
