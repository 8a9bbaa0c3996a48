/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.http.HttpBinding;
import io.zilla.bindings.http.config.HttpConditionConfig;
import io.zilla.bindings.http.config.HttpOptionsConfig;
import io.zilla.bindings.http.config.HttpPattern;
import io.zilla.bindings.http.config.HttpWithConfig;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConditionConfig;
import io.zilla.engine.config.RouteConfig;
import io.zilla.specs.flyweight.String16FW;
import io.zilla.specs.http.types.stream.HttpBeginExFW;
import io.zilla.specs.http.types.stream.HttpHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * The routes of one http binding, compiled when it attaches, matched against a request's header list (an
 * HttpBeginEx, whichever HTTP version it came in on): the first route any of whose conditions matches wins. It then
 * applies the options' and the route's header overrides, with the parameters the condition's {@code :path}
 * captured. Matching reads the header list in place; nothing allocates per request.
 */
final class HttpRouter
{
    private final HttpHeaderFW headerRO = new HttpHeaderFW();
    private final List<Route> routes = new ArrayList<>();
    private final HttpHeaderListWriter overridden;
    private final MutableDirectBuffer valueScratch;

    // what the last match captured: ranges into the header list it matched
    private final int[] starts;
    private final int[] ends;
    private DirectBuffer capturedBuffer;
    private Condition matched;

    HttpRouter(BindingConfig binding, HttpOptionsConfig options, int capacity)
    {
        this.overridden = new HttpHeaderListWriter(capacity);
        this.valueScratch = new UnsafeBuffer(new byte[capacity]);
        int parts = 1;
        for (RouteConfig route : binding.routes())
        {
            if (!route.servable())
            {
                continue;
            }
            final Route compiled = new Route(route.exitId(), route.with() instanceof HttpWithConfig with
                ? overrides(options.overrides(), with.overrides()) : overrides(options.overrides(), Map.of()));
            for (ConditionConfig condition : route.when())
            {
                final Condition compiledCondition = new Condition(((HttpConditionConfig) condition).matchers());
                compiled.conditions.add(compiledCondition);
                for (HttpConditionConfig.Matcher matcher : compiledCondition.matchers)
                {
                    parts = Math.max(parts, matcher.pattern().parts());
                }
            }
            routes.add(compiled);
        }
        this.starts = new int[parts];
        this.ends = new int[parts];
    }

    /** The first route that matches {@code headers}, or null when none does. */
    Route resolve(HttpBeginExFW headers)
    {
        matched = null;
        for (int r = 0; r < routes.size(); r++)
        {
            final Route route = routes.get(r);
            if (route.conditions.isEmpty())
            {
                return route;
            }
            for (int c = 0; c < route.conditions.size(); c++)
            {
                final Condition condition = route.conditions.get(c);
                if (condition.matches(headers))
                {
                    matched = condition;
                    capturedBuffer = headers.buffer();
                    return route;
                }
            }
        }
        return null;
    }

    /**
     * The header list with {@code route}'s overrides applied: {@code headers}' own buffer when there are none (the
     * list then starts at {@code headers.offset()}), else a copy at offset 0 of this router's buffer (valid until the
     * next call). Returns the length in {@code lengthOut[0]}.
     */
    DirectBuffer applyOverrides(Route route, HttpBeginExFW headers, int[] lengthOut)
    {
        if (route.overrides.isEmpty())
        {
            lengthOut[0] = headers.sizeof();
            return headers.buffer();
        }
        overridden.begin();
        final int count = headers.headers().count();
        int offset = headers.headers().offset() + Integer.BYTES;
        for (int i = 0; i < count; i++)
        {
            final HttpHeaderFW header = headerRO.wrap(headers.buffer(), offset, headers.limit());
            offset = header.limit();
            if (route.overrideIndex(header.name()) < 0)
            {
                overridden.header(header.name(), header.value());
            }
        }
        for (int i = 0; i < route.overrides.size(); i++)
        {
            final HeaderOverride override = route.overrides.get(i);
            int length = 0;
            for (int p = 0; p < override.parts.length; p++)
            {
                if ((p & 1) == 0)
                {
                    final byte[] literal = override.literals[p];
                    valueScratch.putBytes(length, literal);
                    length += literal.length;
                }
                else
                {
                    final int part = matched != null ? matched.captureOf(override.parts[p]) : -1;
                    if (part >= 0)
                    {
                        final int captured = ends[part] - starts[part];
                        valueScratch.putBytes(length, capturedBuffer, starts[part], captured);
                        length += captured;
                    }
                }
            }
            overridden.header(override.name, valueScratch, 0, length);
        }
        lengthOut[0] = overridden.end();
        return overridden.buffer();
    }

    /** A route compiled: its exit, its conditions and the overrides it sets. */
    static final class Route
    {
        final long exitId;
        final List<Condition> conditions = new ArrayList<>();
        final List<HeaderOverride> overrides;

        Route(long exitId, List<HeaderOverride> overrides)
        {
            this.exitId = exitId;
            this.overrides = overrides;
        }

        int overrideIndex(String16FW name)
        {
            for (int i = 0; i < overrides.size(); i++)
            {
                if (equals(name, overrides.get(i).nameBytes))
                {
                    return i;
                }
            }
            return -1;
        }

        private static boolean equals(String16FW name, byte[] bytes)
        {
            if (name.length() != bytes.length)
            {
                return false;
            }
            final DirectBuffer buffer = name.buffer();
            final int offset = name.valueOffset();
            for (int i = 0; i < bytes.length; i++)
            {
                if (buffer.getByte(offset + i) != bytes[i])
                {
                    return false;
                }
            }
            return true;
        }
    }

    /** A condition compiled: every header it names must be there and match. */
    final class Condition
    {
        final List<HttpConditionConfig.Matcher> matchers;
        private final HttpPattern path;

        Condition(List<HttpConditionConfig.Matcher> matchers)
        {
            this.matchers = matchers;
            HttpPattern found = null;
            for (HttpConditionConfig.Matcher matcher : matchers)
            {
                if (":path".equals(new String(matcher.name(), StandardCharsets.US_ASCII)))
                {
                    found = matcher.pattern();
                }
            }
            this.path = found;
        }

        boolean matches(HttpBeginExFW headers)
        {
            for (int m = 0; m < matchers.size(); m++)
            {
                final HttpConditionConfig.Matcher matcher = matchers.get(m);
                if (!matchesOne(headers, matcher))
                {
                    return false;
                }
            }
            return true;
        }

        private boolean matchesOne(HttpBeginExFW headers, HttpConditionConfig.Matcher matcher)
        {
            final int count = headers.headers().count();
            int offset = headers.headers().offset() + Integer.BYTES;
            final int limit = headers.limit();
            final boolean capture = matcher.pattern() == path;
            for (int i = 0; i < count; i++)
            {
                final HttpHeaderFW header = headerRO.wrap(headers.buffer(), offset, limit);
                offset = header.limit();
                if (Route.equals(header.name(), matcher.name()))
                {
                    final String16FW value = header.value();
                    if (matcher.pattern().matches(value.buffer(), value.valueOffset(), value.length(),
                        capture ? starts : null, capture ? ends : null))
                    {
                        return true;
                    }
                }
            }
            return false;
        }

        int captureOf(String param)
        {
            return path != null ? path.paramPart(param) : -1;
        }
    }

    /** One header an override sets: its name and its value as literal text between parameter names. */
    static final class HeaderOverride
    {
        final String name;
        final byte[] nameBytes;
        final String[] parts;
        final byte[][] literals;

        HeaderOverride(String name, String value)
        {
            this.name = name;
            this.nameBytes = name.getBytes(StandardCharsets.US_ASCII);
            this.parts = HttpBinding.split(value).toArray(new String[0]);
            this.literals = new byte[parts.length][];
            for (int p = 0; p < parts.length; p += 2)
            {
                literals[p] = parts[p].getBytes(StandardCharsets.UTF_8);
            }
        }
    }

    private static List<HeaderOverride> overrides(Map<String, String> options, Map<String, String> route)
    {
        final Map<String, String> merged = new LinkedHashMap<>(options);
        merged.putAll(route);
        final List<HeaderOverride> overrides = new ArrayList<>();
        merged.forEach((name, value) -> overrides.add(new HeaderOverride(name, value)));
        return overrides;
    }
}
