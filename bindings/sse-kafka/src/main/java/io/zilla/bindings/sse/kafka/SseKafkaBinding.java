/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka;

import java.net.URL;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.sse.kafka.config.SseKafkaConditionConfig;
import io.zilla.bindings.sse.kafka.config.SseKafkaFilterConfig;
import io.zilla.bindings.sse.kafka.config.SseKafkaWithConfig;
import io.zilla.bindings.sse.kafka.stream.SseKafkaProxyFactory;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.ConfigValueException;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.PathPattern;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.ValueTemplate;
import io.zilla.engine.config.WithConfig;

/** The sse-kafka binding type: kind proxy, see docs/bindings/sse-kafka.md. */
public final class SseKafkaBinding implements Binding
{
    public static final String TYPE = "sse-kafka";

    private static final String SCHEMA = "/io/zilla/specs/sse/kafka/schema/sse-kafka.schema.json";

    @Override
    public String type()
    {
        return TYPE;
    }

    @Override
    public Set<KindConfig> kinds()
    {
        return Set.of(KindConfig.PROXY);
    }

    @Override
    public URL schema()
    {
        return SseKafkaBinding.class.getResource(SCHEMA);
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        try
        {
            return new SseKafkaConditionConfig(PathPattern.compile(condition.path("path").asText()));
        }
        catch (IllegalArgumentException ex)
        {
            throw new ConfigValueException("path", ex.getMessage());
        }
    }

    @Override
    public WithConfig with(KindConfig kind, JsonNode with)
    {
        final ValueTemplate topic = ValueTemplate.parse("topic", with.path("topic").asText());
        final List<SseKafkaFilterConfig> filters = new ArrayList<>();
        final JsonNode filtersNode = with.path("filters");
        for (int i = 0; i < filtersNode.size(); i++)
        {
            final JsonNode filter = filtersNode.get(i);
            final String at = "filters[" + i + "]";
            final ValueTemplate key = filter.has("key") ? ValueTemplate.parse(at + ".key", filter.get("key").asText())
                : null;
            final List<SseKafkaFilterConfig.Header> headers = new ArrayList<>();
            for (Map.Entry<String, JsonNode> header : filter.path("headers").properties())
            {
                final String name = header.getKey();
                if (name.contains("${"))
                {
                    throw new ConfigValueException(at + ".headers", "header name '" + name + "' holds an expression: a"
                        + " header's name is literal, its value may hold ${params.<name>}");
                }
                headers.add(new SseKafkaFilterConfig.Header(name,
                    ValueTemplate.parse(at + ".headers." + name, header.getValue().asText())));
            }
            filters.add(new SseKafkaFilterConfig(key, headers));
        }
        final String id = with.path("event").path("id").asText(SseKafkaWithConfig.ETAG);
        final SseKafkaWithConfig.EventIdFormat eventId = SseKafkaWithConfig.KEY_AND_ETAG.equals(id)
            ? SseKafkaWithConfig.EventIdFormat.KEY_AND_ETAG : SseKafkaWithConfig.EventIdFormat.ETAG;
        final JsonNode defaultOffset = with.path("defaultOffset");
        return new SseKafkaWithConfig(topic, filters, eventId, defaultOffset.isTextual()
            ? SseKafkaWithConfig.DefaultOffset.valueOf(defaultOffset.asText().toUpperCase(Locale.ROOT)) : null);
    }

    /**
     * What no schema can say: every ${params.name} of a route's with is captured by the path of each of its when
     * entries (they are OR-ed, so any may be the one that matched), and the exit is a kafka binding that serves merged
     * streams (kind cache_client or client).
     */
    @Override
    public List<ConfigValueException> check(BindingConfig binding, NamespaceConfig namespace)
    {
        final List<ConfigValueException> errors = new ArrayList<>();
        for (RouteConfig route : binding.routes())
        {
            final String at = "routes[" + route.order() + "]";
            if (route.with() instanceof SseKafkaWithConfig with)
            {
                for (String[] param : with.params())
                {
                    if (route.when().isEmpty())
                    {
                        errors.add(new ConfigValueException(at + ".with." + param[0], "${params." + param[1] + "}: the"
                            + " route has no when path to capture it"));
                    }
                    for (int i = 0; i < route.when().size(); i++)
                    {
                        final PathPattern path = ((SseKafkaConditionConfig) route.when().get(i)).path();
                        if (path.paramPart(param[1]) < 0)
                        {
                            errors.add(new ConfigValueException(at + ".with." + param[0], "${params." + param[1] + "}:"
                                + " when[" + i + "].path " + path.text() + " captures no {" + param[1] + "}"));
                        }
                    }
                }
            }
            final BindingConfig exit = namespace.binding(route.exit());
            if (exit != null && (!"kafka".equals(exit.type())
                || exit.kind() != KindConfig.CACHE_CLIENT && exit.kind() != KindConfig.CLIENT))
            {
                errors.add(new ConfigValueException(at + ".exit", "an sse-kafka route's exit must be a kafka cache_client"
                    + " (or client), not " + exit.name() + " (" + exit.type() + " " + exit.kind().yamlName() + ")"));
            }
        }
        return errors;
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        final SseKafkaProxyFactory factory = new SseKafkaProxyFactory(context);
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                factory.attach(binding);
                return factory;
            }

            @Override
            public void detach(BindingConfig binding)
            {
                factory.detach(binding.id());
            }
        };
    }
}
