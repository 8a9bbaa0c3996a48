/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.filesystem;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.http.filesystem.config.HttpFilesystemConditionConfig;
import io.zilla.bindings.http.filesystem.config.HttpFilesystemWithConfig;
import io.zilla.bindings.http.filesystem.stream.HttpFilesystemBindingContext;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.ConfigValueException;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.WithConfig;

/**
 * The http-filesystem binding type: kind {@code proxy} maps an http GET or HEAD to a filesystem stream for the file
 * its path names, and the file back to the response. See docs/bindings/http-filesystem.md.
 */
public final class HttpFilesystemBinding implements Binding
{
    public static final String NAME = "http-filesystem";

    private static final String SCHEMA = "/io/zilla/specs/http/filesystem/schema/http-filesystem.schema.json";

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.PROXY);
    }

    @Override
    public URL schema()
    {
        return HttpFilesystemBinding.class.getResource(SCHEMA);
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        try
        {
            return HttpFilesystemConditionConfig.of(condition.path("path").asText());
        }
        catch (IllegalArgumentException ex)
        {
            throw new ConfigValueException("path", ex.getMessage());
        }
    }

    @Override
    public WithConfig with(KindConfig kind, JsonNode with)
    {
        try
        {
            return HttpFilesystemWithConfig.of(with.path("path").asText());
        }
        catch (IllegalArgumentException ex)
        {
            throw new ConfigValueException("path", ex.getMessage());
        }
    }

    /** A with that names a parameter must have it captured by every condition of its route. */
    @Override
    public List<ConfigValueException> check(BindingConfig binding, NamespaceConfig namespace)
    {
        final List<ConfigValueException> problems = new ArrayList<>();
        for (RouteConfig route : binding.routes())
        {
            if (!(route.with() instanceof HttpFilesystemWithConfig with))
            {
                continue;
            }
            for (String param : with.params())
            {
                if (route.when().isEmpty())
                {
                    problems.add(new ConfigValueException("routes[" + route.order() + "].with.path",
                        "${params." + param + "}: the route has no when path to capture it"));
                }
                for (ConditionConfig condition : route.when())
                {
                    if (!((HttpFilesystemConditionConfig) condition).params().contains(param))
                    {
                        problems.add(new ConfigValueException("routes[" + route.order() + "].with.path",
                            "${params." + param + "}: not captured by the route's path "
                                + ((HttpFilesystemConditionConfig) condition).path()));
                    }
                }
            }
        }
        return problems;
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new HttpFilesystemBindingContext(context);
    }
}
