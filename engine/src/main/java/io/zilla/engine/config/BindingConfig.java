/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

/**
 * One binding of zilla.yaml, validated and bound.
 *
 * @param id      the id that frames carry as originId and routedId
 * @param name    its name in zilla.yaml
 * @param type    tcp, http...
 * @param kind    server, client...
 * @param vault   the vault it uses, or null
 * @param options its type's options, or null
 * @param routes  its routes in order, the default {@code exit} (if any) last as a route without conditions
 * @param metrics the metrics recorded for it: those its {@code telemetry.metrics} and the namespace's both select
 * @param attributes its {@code telemetry.attributes} in their order: a label's name to the expression of its type that
 *                   gives each request's value ({@code method: ${http.request.method}}); they label its histograms
 */
public record BindingConfig(long id, String name, String type, KindConfig kind, String vault, OptionsConfig options,
    List<RouteConfig> routes, Set<String> metrics, Map<String, String> attributes)
{
    public BindingConfig
    {
        routes = List.copyOf(routes);
        metrics = Set.copyOf(metrics);
        // the order of zilla.yaml is the order of the labels
        attributes = Collections.unmodifiableMap(new LinkedHashMap<>(attributes));
    }

    /** A binding whose histograms have no attributes. */
    public BindingConfig(long id, String name, String type, KindConfig kind, String vault, OptionsConfig options,
        List<RouteConfig> routes, Set<String> metrics)
    {
        this(id, name, type, kind, vault, options, routes, metrics, Map.of());
    }

    /** A binding that records no metric. */
    public BindingConfig(long id, String name, String type, KindConfig kind, String vault, OptionsConfig options,
        List<RouteConfig> routes)
    {
        this(id, name, type, kind, vault, options, routes, Set.of());
    }

    /** The first route that matches, or null when none does. */
    public RouteConfig resolve(Predicate<ConditionConfig> matcher)
    {
        for (int i = 0; i < routes.size(); i++)
        {
            final RouteConfig route = routes.get(i);
            if (route.matches(matcher))
            {
                return route;
            }
        }
        return null;
    }

    /** The first route whose conditions accept anything: a route without {@code when}, or the default exit. */
    public RouteConfig resolveAny()
    {
        return resolve(condition -> false);
    }
}
