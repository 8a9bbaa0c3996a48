/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse;

import java.net.URL;
import java.util.List;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.sse.config.SseConditionConfig;
import io.zilla.bindings.sse.config.SseOptionsConfig;
import io.zilla.bindings.sse.stream.SseBindingContext;
import io.zilla.bindings.sse.stream.SseMetrics;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.ConfigValueException;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.metrics.Metric;

/**
 * The sse binding type. Kind {@code server} turns each HTTP request stream of an http server binding into one
 * Server-Sent Events stream to its route's exit, and the exit's events into text/event-stream; kind {@code client}
 * turns each sse stream into an HTTP GET to its exit (an http client) and the upstream's text/event-stream back into
 * events. See docs/bindings/sse.md.
 */
public final class SseBinding implements Binding
{
    public static final String NAME = "sse";

    /** The type id that tags sse's frame extensions: the type name's {@link String#hashCode()}. */
    public static final int TYPE_ID = NAME.hashCode();

    private static final String SCHEMA = "/io/zilla/specs/sse/schema/sse.schema.json";

    @Override
    public String type()
    {
        return NAME;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.SERVER, KindConfig.CLIENT);
    }

    @Override
    public List<Metric> metrics()
    {
        return SseMetrics.DECLARED;
    }

    @Override
    public URL schema()
    {
        return SseBinding.class.getResource(SCHEMA);
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        if (kind == KindConfig.CLIENT || options == null || options.isMissingNode() || options.isNull())
        {
            return SseOptionsConfig.DEFAULTS;
        }
        final JsonNode limits = options.path("limits");
        return new SseOptionsConfig(
            options.has("retry") ? options.get("retry").asInt() : SseOptionsConfig.DEFAULT_RETRY,
            options.has("keep-alive") ? options.get("keep-alive").asInt() : SseOptionsConfig.DEFAULT_KEEP_ALIVE,
            limits.has("last-event-id") ? limits.get("last-event-id").asInt() : SseOptionsConfig.DEFAULT_LAST_ID_LIMIT);
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        final String path = condition.path("path").asText();
        try
        {
            return new SseConditionConfig(path);
        }
        catch (IllegalArgumentException ex)
        {
            throw new ConfigValueException("path", ex.getMessage());
        }
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new SseBindingContext(context);
    }
}
