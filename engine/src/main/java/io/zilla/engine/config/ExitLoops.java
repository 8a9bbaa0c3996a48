/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Finds the loops in the graph of exits: a binding whose exit (default or of a route) leads, through other bindings'
 * exits, back to itself. Each stream a binding opens toward its exit is a new stream, so a loop opens streams without
 * end, each lap on the same worker, until the worker's memory or the process's file descriptors run out. Every
 * binding type only ever sends streams onward, so no loop is ever meant: each is an error at the exit that closes it.
 */
final class ExitLoops
{
    private static final int UNVISITED = 0;
    private static final int ON_PATH = 1;
    private static final int DONE = 2;

    private final JsonNode bindings;
    private final Predicate<JsonNode> hasExits;
    private final SourceMap sources;
    private final List<ConfigError> errors;
    private final Map<String, Integer> states = new HashMap<>();
    private final List<String> path = new ArrayList<>();
    private final Set<ConfigPath> reported = new HashSet<>();

    /** @param hasExits whether a binding sends streams on to its exits (a tcp client's route exits lead nowhere) */
    ExitLoops(JsonNode bindings, Predicate<JsonNode> hasExits, SourceMap sources, List<ConfigError> errors)
    {
        this.bindings = bindings;
        this.hasExits = hasExits;
        this.sources = sources;
        this.errors = errors;
    }

    /** Reports each exit that closes a loop, once, in file order of the bindings the search starts from. */
    void check()
    {
        if (!bindings.isObject())
        {
            return;
        }
        for (Map.Entry<String, JsonNode> binding : bindings.properties())
        {
            if (states.getOrDefault(binding.getKey(), UNVISITED) == UNVISITED)
            {
                visit(binding.getKey());
            }
        }
    }

    // a depth-first search: an exit to a binding still on the path is the edge that closes a loop
    private void visit(String name)
    {
        states.put(name, ON_PATH);
        final JsonNode binding = bindings.path(name);
        if (!hasExits.test(binding))
        {
            states.put(name, DONE);
            return;
        }
        path.add(name);
        final ConfigPath bindingPath = ConfigPath.of("bindings", name);
        final JsonNode routes = binding.path("routes");
        for (int index = 0; routes.isArray() && index < routes.size(); index++)
        {
            follow(bindingPath.property("routes").index(index).property("exit"), routes.get(index).path("exit"));
        }
        follow(bindingPath.property("exit"), binding.path("exit"));
        path.remove(path.size() - 1);
        states.put(name, DONE);
    }

    private void follow(ConfigPath exitPath, JsonNode exit)
    {
        if (!exit.isTextual() || !bindings.path(exit.textValue()).isObject())
        {
            // not a name, or no binding of that name: reported as such elsewhere
            return;
        }
        final String next = exit.textValue();
        switch (states.getOrDefault(next, UNVISITED))
        {
            case UNVISITED -> visit(next);
            case ON_PATH ->
            {
                if (reported.add(exitPath))
                {
                    errors.add(sources.error(exitPath, describe(next)));
                }
            }
            default ->
            {
                // done: every loop through it has been found already
            }
        }
    }

    private String describe(String next)
    {
        final String from = path.get(path.size() - 1);
        if (from.equals(next))
        {
            return "exit '" + next + "' is this binding itself: every stream would open another, without end";
        }
        final List<String> loop = new ArrayList<>(path.subList(path.indexOf(next), path.size()));
        loop.add(next);
        return "exit '" + next + "' closes a loop (" + String.join(" -> ", loop)
            + "): every stream would open another, without end";
    }
}
