/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka;

import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.http.kafka.config.HttpKafkaConditionConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaFilterConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaMergeConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaOptionsConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaWithConfig;
import io.zilla.bindings.http.kafka.config.HttpKafkaWithConfig.Capability;
import io.zilla.bindings.http.kafka.stream.HttpKafkaFreshness;
import io.zilla.bindings.http.kafka.stream.HttpKafkaIdempotency;
import io.zilla.bindings.http.kafka.stream.HttpKafkaProxyFactory;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.ConfigValueException;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.config.PathPattern;
import io.zilla.engine.config.RouteConfig;
import io.zilla.engine.config.ValueTemplate;
import io.zilla.engine.config.WithConfig;

/** The http-kafka binding type: kind proxy, see docs/bindings/http-kafka.md. */
public final class HttpKafkaBinding implements Binding
{
    public static final String TYPE = "http-kafka";

    private static final String SCHEMA = "/io/zilla/specs/http/kafka/schema/http-kafka.schema.json";

    // the requests in flight and recently produced, by correlation id: shared by the workers of this engine
    private final HttpKafkaIdempotency idempotency = new HttpKafkaIdempotency();
    // when each topic last had a record acknowledged: shared by the workers too
    private final HttpKafkaFreshness freshness = new HttpKafkaFreshness();

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
        return HttpKafkaBinding.class.getResource(SCHEMA);
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        final JsonNode headers = options.path("correlation").path("headers");
        final JsonNode limits = options.path("limits");
        return new HttpKafkaOptionsConfig(
            options.path("idempotency").path("header").asText(HttpKafkaOptionsConfig.IDEMPOTENCY_HEADER),
            headers.path("reply-to").asText(HttpKafkaOptionsConfig.REPLY_TO_HEADER),
            headers.path("correlation-id").asText(HttpKafkaOptionsConfig.CORRELATION_ID_HEADER),
            limits.path("body").asInt(HttpKafkaOptionsConfig.BODY_LIMIT),
            limits.path("wait").asLong(HttpKafkaOptionsConfig.WAIT_LIMIT));
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        try
        {
            final String method = condition.has("method") ? condition.get("method").asText() : null;
            return new HttpKafkaConditionConfig(method, PathPattern.compile(condition.path("path").asText(), "/;"));
        }
        catch (IllegalArgumentException ex)
        {
            throw new ConfigValueException("path", ex.getMessage());
        }
    }

    @Override
    public WithConfig with(KindConfig kind, JsonNode with)
    {
        final Capability capability = "fetch".equals(with.path("capability").asText()) ? Capability.FETCH
            : Capability.PRODUCE;
        final ValueTemplate topic = ValueTemplate.parse("topic", with.path("topic").asText());
        final ValueTemplate key = with.has("key")
            ? ValueTemplate.parse("key", with.get("key").asText(), HttpKafkaWithConfig.VARIABLES[0]) : null;
        final short acks = switch (with.path("acks").asText("in_sync_replicas"))
        {
            case "none" -> 0;
            case "leader_only" -> 1;
            default -> -1;
        };
        final Map<String, ValueTemplate> overrides = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> override : with.path("overrides").properties())
        {
            overrides.put(override.getKey(), ValueTemplate.parse("overrides." + override.getKey(),
                override.getValue().asText(), HttpKafkaWithConfig.VARIABLES[0]));
        }
        final String replyTo = with.has("reply-to") ? with.get("reply-to").asText() : null;
        final ValueTemplate location = with.path("async").has("location")
            ? ValueTemplate.parse("async.location", with.path("async").get("location").asText(),
                HttpKafkaWithConfig.VARIABLES) : null;
        final List<HttpKafkaFilterConfig> filters = new ArrayList<>();
        for (int i = 0; i < with.path("filters").size(); i++)
        {
            filters.add(filter("filters[" + i + "]", with.path("filters").get(i)));
        }
        final JsonNode merge = with.path("merge");
        return new HttpKafkaWithConfig(capability, topic, key, acks, overrides, replyTo, location, filters,
            merge.isObject() ? HttpKafkaMergeConfig.of(merge.path("content-type").asText(),
                merge.path("initial").asText("[]"), merge.path("path").asText("/-")) : null);
    }

    private static HttpKafkaFilterConfig filter(String at, JsonNode filter)
    {
        final List<String> names = new ArrayList<>();
        final List<ValueTemplate> values = new ArrayList<>();
        filter.path("headers").properties().forEach(header ->
        {
            names.add(header.getKey());
            values.add(ValueTemplate.parse(at + ".headers." + header.getKey(), header.getValue().asText()));
        });
        return new HttpKafkaFilterConfig(filter.has("key") ? ValueTemplate.parse(at + ".key", filter.get("key").asText())
            : null, names, values);
    }

    /**
     * What no schema can say: every {@code ${params.name}} of a route's with is captured by the path of each of its
     * when entries (any may be the one that matched), {@code async} goes with {@code reply-to}, and the exit is a
     * kafka binding that serves merged streams (kind cache_client or client).
     */
    @Override
    public List<ConfigValueException> check(BindingConfig binding, NamespaceConfig namespace)
    {
        final List<ConfigValueException> errors = new ArrayList<>();
        for (RouteConfig route : binding.routes())
        {
            final String at = "routes[" + route.order() + "]";
            if (!(route.with() instanceof HttpKafkaWithConfig with))
            {
                continue;
            }
            with.templates().forEach((where, template) -> unbound(at + ".with." + where, template, route, errors));
            if (with.location() != null && with.replyTo() == null)
            {
                errors.add(new ConfigValueException(at + ".with.async", "async goes with reply-to: without a reply there"
                    + " is nothing to fetch from the location"));
            }
            final BindingConfig exit = namespace.binding(route.exit());
            if (exit != null && (!"kafka".equals(exit.type())
                || exit.kind() != KindConfig.CACHE_CLIENT && exit.kind() != KindConfig.CLIENT))
            {
                errors.add(new ConfigValueException(at + ".exit", "an http-kafka route's exit must be a kafka cache_client"
                    + " (or client), not " + exit.name() + " (" + exit.type() + " " + exit.kind().yamlName() + ")"));
            }
        }
        return errors;
    }

    // a ${params.name} that some when path of the route does not capture (an async location's ${params.x} is read
    // from the path of the request that produced, so every when counts there too)
    private static void unbound(String where, ValueTemplate template, RouteConfig route, List<ConfigValueException> errors)
    {
        for (String param : template.params())
        {
            final List<String> missing = new ArrayList<>();
            for (ConditionConfig condition : route.when())
            {
                final PathPattern path = ((HttpKafkaConditionConfig) condition).path();
                if (path.paramPart(param) < 0)
                {
                    missing.add(path.text());
                }
            }
            if (route.when().isEmpty() || !missing.isEmpty())
            {
                errors.add(new ConfigValueException(where, "${params." + param + "}: "
                    + (route.when().isEmpty() ? "the route has no when path to capture it"
                        : "not captured by the path " + String.join(", ", missing))));
            }
        }
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        final HttpKafkaProxyFactory factory = new HttpKafkaProxyFactory(context, idempotency, freshness);
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
