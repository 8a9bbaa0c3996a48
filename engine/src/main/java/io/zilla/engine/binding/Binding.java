/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding;

import java.net.URL;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.ConfigValueException;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.config.WithConfig;
import io.zilla.engine.metrics.Metric;

/**
 * A binding type in one engine: what zilla.yaml may say of it (its schema and config adapters) and a
 * {@link BindingContext} per worker that runs its streams.
 */
public interface Binding
{
    String type();

    /** The kinds this type supports. */
    Set<KindConfig> kinds();

    /**
     * The JSON Schema of this type's part of zilla.yaml ({@code <type>.schema.json}): the {@code options},
     * {@code when} entries and {@code with} of a binding of this type. See docs/config.md for its shape.
     */
    URL schema();

    /**
     * Whether a binding of this kind sends streams on to exits, as a server or a proxy does. A kind that ends streams
     * itself (a tcp client, which connects to the network) has no exits: its routes only say which streams it takes,
     * and an {@code exit}, of a route or its own, is refused rather than ignored.
     */
    default boolean hasExits(KindConfig kind)
    {
        return true;
    }

    /** Binds validated {@code options} to this type's immutable record; null when the type has no options. */
    default OptionsConfig options(KindConfig kind, JsonNode options)
    {
        return null;
    }

    /**
     * Binds validated {@code options}, for a type whose options name files: {@code directory} is the zilla.yaml's
     * directory (the working directory when its location is only a label), against which relative paths resolve, as
     * a vault's do. By default the same as {@link #options(KindConfig, JsonNode)}.
     */
    default OptionsConfig options(KindConfig kind, JsonNode options, Path directory)
    {
        return options(kind, options);
    }

    /** Binds one validated {@code when} entry of a route. */
    default ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        return null;
    }

    /** Binds a route's validated {@code with}. */
    default WithConfig with(KindConfig kind, JsonNode with)
    {
        return null;
    }

    /**
     * Checks one bound binding of this type against the whole file, for what spans bindings and no schema can say,
     * such as a tcp client aimed at the listener of a tcp server of the same file. Called once every binding is
     * bound without error.
     *
     * @return the problems, each with the path of the value at fault from the binding ({@code options.port},
     *         {@code routes[0].exit})
     */
    default List<ConfigValueException> check(BindingConfig binding, NamespaceConfig namespace)
    {
        return List.of();
    }

    /**
     * The metrics a binding of this type records, beyond the engine's {@code stream.*} ones, for zilla.yaml's
     * {@code telemetry.metrics} to select ({@code http.duration}); none by default.
     */
    default List<Metric> metrics()
    {
        return List.of();
    }

    /**
     * The expressions a binding of this type resolves for each request, for zilla.yaml's {@code telemetry.attributes}
     * ({@code method: ${http.request.method}}) to label its histograms with; none by default. Each must have a bounded
     * set of values, so that a binding's series stay bounded.
     */
    default List<String> attributes()
    {
        return List.of();
    }

    /** Called once per worker, on that worker's thread. */
    BindingContext supply(EngineContext context);
}
