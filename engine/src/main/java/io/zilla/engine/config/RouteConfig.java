/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * A route: it matches when any of its {@code when} entries matches, or always when there are none; then the
 * stream goes to {@code exit}.
 *
 * @param order   the route's place in its binding (the default exit comes last)
 * @param when    the conditions, OR-ed
 * @param with    mapping parameters, or null
 * @param exit    the name of the next binding; null in a binding whose kind has no exits (a tcp client)
 * @param exitId  the id of the next binding; 0 when there is none
 * @param guarded guard name to the roles it requires; empty when not guarded
 */
public record RouteConfig(int order, List<ConditionConfig> when, WithConfig with, String exit, long exitId,
    Map<String, List<String>> guarded)
{
    public RouteConfig
    {
        when = List.copyOf(when);
        guarded = Map.copyOf(guarded);
    }

    /**
     * Whether the route may take streams at all: a guarded route may not yet, for no guard type is installed to say who
     * may pass (a file with a guard is refused, so this only matters for configs built in code). A binding that matches
     * routes its own way, rather than with {@link #matches}, must skip a route that is not servable.
     */
    public boolean servable()
    {
        return guarded.isEmpty();
    }

    /** Whether the route takes a stream: it is servable, and any of its conditions matches (or it has none). */
    public boolean matches(Predicate<ConditionConfig> matcher)
    {
        if (!servable())
        {
            return false;
        }
        if (when.isEmpty())
        {
            return true;
        }
        for (int i = 0; i < when.size(); i++)
        {
            if (matcher.test(when.get(i)))
            {
                return true;
            }
        }
        return false;
    }
}
