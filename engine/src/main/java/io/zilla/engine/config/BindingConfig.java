/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.List;
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
 */
public record BindingConfig(long id, String name, String type, KindConfig kind, String vault, OptionsConfig options,
    List<RouteConfig> routes, Set<String> metrics)
{
    public BindingConfig
    {
        routes = List.copyOf(routes);
        metrics = Set.copyOf(metrics);
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
