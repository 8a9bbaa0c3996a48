/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http;

import java.net.URL;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import com.fasterxml.jackson.databind.JsonNode;
import io.zilla.bindings.http.config.Http2FloodLimits;
import io.zilla.bindings.http.config.HttpAccessControlConfig;
import io.zilla.bindings.http.config.HttpConditionConfig;
import io.zilla.bindings.http.config.HttpLimitsConfig;
import io.zilla.bindings.http.config.HttpOptionsConfig;
import io.zilla.bindings.http.config.HttpWithConfig;
import io.zilla.bindings.http.stream.HttpAttributes;
import io.zilla.bindings.http.stream.HttpBindingContext;
import io.zilla.bindings.http.stream.HttpMetrics;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.OptionsConfig;
import io.zilla.engine.config.WithConfig;
import io.zilla.engine.metrics.Metric;

/**
 * The http binding type. Kind {@code server} decodes HTTP requests from its network stream into one application
 * stream per request, kind {@code client} encodes application streams as HTTP/1.1 requests to its exit. See
 * docs/bindings/http.md.
 */
public final class HttpBinding implements Binding
{
    public static final String NAME = "http";

    /** The type id that tags http's frame extensions: the type name's {@link String#hashCode()}. */
    public static final int TYPE_ID = NAME.hashCode();

    /** Engine property: HTTP/2 streams a connection may have reset within {@link #SERVER_RESETS_WINDOW} (rapid reset). */
    public static final String SERVER_MAX_RESETS = "zilla.binding.http.server.max.resets";
    /** Engine property: the milliseconds in which {@link #SERVER_MAX_RESETS} are counted. */
    public static final String SERVER_RESETS_WINDOW = "zilla.binding.http.server.resets.window";
    /** Engine property: CONTINUATION frames one HTTP/2 header block may take. */
    public static final String SERVER_MAX_CONTINUATIONS = "zilla.binding.http.server.max.continuations";
    /** Engine property: HTTP/2 DATA frames in a row that may carry nothing without ending their stream. */
    public static final String SERVER_MAX_EMPTY_FRAMES = "zilla.binding.http.server.max.empty.frames";
    /** Engine property: HTTP/2 acknowledgements and resets that may wait for a client that does not read them. */
    public static final String SERVER_MAX_QUEUED_CONTROL_FRAMES = "zilla.binding.http.server.max.queued.control.frames";

    private static final String SCHEMA = "/io/zilla/specs/http/schema/http.schema.json";
    private static final Pattern PARAM = Pattern.compile("\\$\\{params\\.([A-Za-z_][A-Za-z0-9_]*)\\}");

    private final Http2FloodLimits floods;

    public HttpBinding(EngineConfiguration configuration)
    {
        this.floods = new Http2FloodLimits(
            positive(configuration, SERVER_MAX_RESETS, Http2FloodLimits.DEFAULT_MAX_RESETS),
            positive(configuration, SERVER_RESETS_WINDOW, (int) Http2FloodLimits.DEFAULT_RESETS_WINDOW),
            positive(configuration, SERVER_MAX_CONTINUATIONS, Http2FloodLimits.DEFAULT_MAX_CONTINUATIONS),
            positive(configuration, SERVER_MAX_EMPTY_FRAMES, Http2FloodLimits.DEFAULT_MAX_EMPTY_FRAMES),
            positive(configuration, SERVER_MAX_QUEUED_CONTROL_FRAMES, Http2FloodLimits.DEFAULT_MAX_QUEUED_CONTROL_FRAMES));
    }

    /** The HTTP/2 flood limits this engine's properties set. */
    public Http2FloodLimits floods()
    {
        return floods;
    }

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
        return HttpMetrics.DECLARED;
    }

    @Override
    public List<String> attributes()
    {
        return HttpAttributes.EXPRESSIONS;
    }

    @Override
    public URL schema()
    {
        return HttpBinding.class.getResource(SCHEMA);
    }

    @Override
    public OptionsConfig options(KindConfig kind, JsonNode options)
    {
        if (options == null || options.isMissingNode() || options.isNull())
        {
            return HttpOptionsConfig.DEFAULTS;
        }
        final Set<String> versions = new LinkedHashSet<>();
        final JsonNode versionsNode = options.get("versions");
        if (versionsNode != null)
        {
            versionsNode.forEach(version -> versions.add(version.asText()));
        }
        else
        {
            versions.addAll(HttpOptionsConfig.DEFAULTS.versions());
        }
        final Map<String, String> overrides = headers(options.get("overrides"));
        checkSubstitutions(overrides);
        return new HttpOptionsConfig(versions, accessControl(options.get("access-control")), overrides,
            limits(options.get("limits")));
    }

    @Override
    public ConditionConfig condition(KindConfig kind, JsonNode condition)
    {
        final Map<String, String> headers = headers(condition.get("headers"));
        final HttpConditionConfig config = new HttpConditionConfig(headers);
        // a template that does not compile is an error at the condition
        config.matchers();
        return config;
    }

    @Override
    public WithConfig with(KindConfig kind, JsonNode with)
    {
        final JsonNode headers = with.get("headers");
        final Map<String, String> overrides = headers != null ? headers(headers.get("overrides")) : Map.of();
        checkSubstitutions(overrides);
        return new HttpWithConfig(overrides);
    }

    // an override's value substitutes what its route's :path captured, and nothing else: "${...}" would go out as is
    private static void checkSubstitutions(Map<String, String> overrides)
    {
        for (String value : overrides.values())
        {
            final Matcher matcher = PARAM.matcher(value);
            final String rest = matcher.replaceAll("");
            if (rest.contains("${"))
            {
                throw new IllegalArgumentException("'" + value + "': only ${params.name} may be substituted");
            }
        }
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new HttpBindingContext(context, floods);
    }

    /** The names of the parameters that {@code value} substitutes, in order, with the literal text between them. */
    public static List<String> split(String value)
    {
        final List<String> parts = new ArrayList<>();
        final Matcher matcher = PARAM.matcher(value);
        int last = 0;
        while (matcher.find())
        {
            parts.add(value.substring(last, matcher.start()));
            parts.add(matcher.group(1));
            last = matcher.end();
        }
        parts.add(value.substring(last));
        return parts;
    }

    private static int positive(EngineConfiguration configuration, String name, int defaultValue)
    {
        final int value = configuration.intValue(name, defaultValue);
        if (value < 1)
        {
            throw new IllegalArgumentException(name + ": '" + value + "' is not a positive integer");
        }
        return value;
    }

    private static HttpAccessControlConfig accessControl(JsonNode node)
    {
        if (node == null || !"cross-origin".equals(text(node.get("policy"))))
        {
            return HttpAccessControlConfig.SAME_ORIGIN;
        }
        final JsonNode allow = node.get("allow");
        final JsonNode expose = node.get("expose");
        final JsonNode maxAge = node.get("max-age");
        return new HttpAccessControlConfig(true,
            allow != null ? names(allow.get("origins"), true) : null,
            allow != null ? names(allow.get("methods"), false) : null,
            allow != null ? names(allow.get("headers"), true) : null,
            allow != null && allow.has("credentials") && allow.get("credentials").asBoolean(),
            maxAge != null ? maxAge.asInt() : -1,
            expose != null ? names(expose.get("headers"), true) : null);
    }

    private static HttpLimitsConfig limits(JsonNode node)
    {
        if (node == null)
        {
            return HttpLimitsConfig.DEFAULTS;
        }
        return new HttpLimitsConfig(
            node.has("header-list-size") ? node.get("header-list-size").asInt() : HttpLimitsConfig.DEFAULT_HEADER_LIST_SIZE,
            node.has("header-timeout") ? node.get("header-timeout").asLong() : HttpLimitsConfig.DEFAULT_HEADER_TIMEOUT,
            node.has("concurrent-streams") ? node.get("concurrent-streams").asInt()
                : HttpLimitsConfig.DEFAULT_CONCURRENT_STREAMS);
    }

    private static Map<String, String> headers(JsonNode node)
    {
        final Map<String, String> headers = new LinkedHashMap<>();
        if (node != null)
        {
            node.fields().forEachRemaining(e -> headers.put(e.getKey().toLowerCase(Locale.ROOT), e.getValue().asText()));
        }
        return headers;
    }

    private static List<String> names(JsonNode node, boolean lower)
    {
        if (node == null)
        {
            return null;
        }
        final List<String> names = new ArrayList<>();
        node.forEach(name -> names.add(lower ? name.asText().toLowerCase(Locale.ROOT) : name.asText()));
        return names;
    }

    private static String text(JsonNode node)
    {
        return node != null && node.isTextual() ? node.textValue() : null;
    }
}
