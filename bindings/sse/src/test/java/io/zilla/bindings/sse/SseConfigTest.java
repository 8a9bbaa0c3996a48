/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.sse.config.SseConditionConfig;
import io.zilla.bindings.sse.config.SseOptionsConfig;
import io.zilla.bindings.sse.config.SsePathPattern;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.test.TestBindingFactory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** sse's part of zilla.yaml, read by the engine's config reader: its schema, options and conditions. */
class SseConfigTest
{
    private final ConfigReader reader;

    SseConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "sse", new SseBindingFactory().create(configuration),
            "test", new TestBindingFactory().create(configuration));
        this.reader = new ConfigReader(bindings, name -> null);
    }

    @Test
    void shouldBindOptionsAndRoutes()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", yaml("""
                options:
                  retry: 500
                  keep-alive: 30000
                  limits:
                    last-event-id: 256
                routes:
                  - when:
                      - path: /items/{id}
                      - path: /all
                    exit: app
            """), 1);
        final BindingConfig sse = config.binding("sse");
        assertEquals(new SseOptionsConfig(500, 30000, 256), sse.options());
        final SseConditionConfig condition = (SseConditionConfig) sse.routes().get(0).when().get(0);
        assertEquals("/items/{id}", condition.path());
        assertEquals(2, sse.routes().size());
    }

    @Test
    void shouldDefaultOptions()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", yaml(""), 1);
        final BindingConfig sse = config.binding("sse");
        assertTrue(sse.options() == null || SseOptionsConfig.DEFAULTS.equals(sse.options()));
        assertEquals(new SseOptionsConfig(2000, 15000, 1024), SseOptionsConfig.DEFAULTS);
    }

    @Test
    void shouldMatchPathPatterns()
    {
        final SsePathPattern pattern = SsePathPattern.compile("/items/{id}/events");
        assertTrue(matches(pattern, "/items/42/events"));
        assertTrue(matches(pattern, "/items/42/events?lastEventId=7"));
        assertFalse(matches(pattern, "/items//events"));
        assertFalse(matches(pattern, "/items/4/2/events"));
        assertFalse(matches(pattern, "/items/42/events/more"));
        assertTrue(matches(SsePathPattern.compile("/all*"), "/all/a/b"));
        assertTrue(matches(SsePathPattern.compile("/q?x=1"), "/q?x=1"));
        assertFalse(matches(SsePathPattern.compile("/q?x=1"), "/q?x=2"));
    }

    @Test
    void shouldBindAClient()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", yaml("""
                routes:
                  - when:
                      - path: /feed*
                    exit: app
            """).replace("kind: server\n    exit: app", "kind: client\n    exit: app"), 1);
        assertEquals(2, config.binding("sse").routes().size());
    }

    @Test
    void shouldRefuseOptionsOnAClient()
    {
        assertRefused(yaml("""
                options:
                  retry: 500
            """).replace("kind: server\n    exit: app", "kind: client\n    exit: app"),
            "bindings.sse.options", 8, 5, "is for kind server: a client passes the upstream's events on as they are");
    }

    @Test
    void shouldRefuseAnUnknownOption()
    {
        assertRefused(yaml("""
                options:
                  heartbeat: 1000
            """), "bindings.sse.options", 9, 7, "unknown property 'heartbeat'");
    }

    @Test
    void shouldRefuseANegativeRetry()
    {
        assertRefused(yaml("""
                options:
                  retry: -1
            """), "bindings.sse.options.retry", 9, 14, null);
    }

    @Test
    void shouldRefuseALastEventIdLimitOfZero()
    {
        assertRefused(yaml("""
                options:
                  limits:
                    last-event-id: 0
            """), "bindings.sse.options.limits.last-event-id", 10, 24, null);
    }

    @Test
    void shouldRefuseARelativePath()
    {
        assertRefused(yaml("""
                routes:
                  - when:
                      - path: items
                    exit: app
            """), "bindings.sse.routes[0].when[0].path", 10, 19, "must start with /");
    }

    @Test
    void shouldRefuseABadParameterName()
    {
        assertRefused(yaml("""
                routes:
                  - when:
                      - path: /items/{1d}
                    exit: app
            """), "bindings.sse.routes[0].when[0].path", 10, 19, "'1d' is not a parameter name");
    }

    @Test
    void shouldRefuseAConditionOtherThanPath()
    {
        final List<ConfigError> errors = errors(yaml("""
                routes:
                  - when:
                      - headers:
                          x: y
                    exit: app
            """));
        assertEquals(List.of(
            "zilla.yaml:10:13 bindings.sse.routes[0].when[0]: missing required property 'path'",
            "zilla.yaml:10:13 bindings.sse.routes[0].when[0]: unknown property 'headers'"),
            errors.stream().map(ConfigError::toString).toList());
    }

    @Test
    void shouldRefuseWith()
    {
        assertRefused(yaml("""
                routes:
                  - when:
                      - path: /items
                    with:
                      topic: items
                    exit: app
            """), "bindings.sse.routes[0].with", 11, 9,
            "an sse route has no with: the exit receives the request's path and last event id as they are");
    }

    @Test
    void shouldRefuseAGuardedRoute()
    {
        // no guard type is installed: the engine refuses the guard, and so the route it guards
        final List<ConfigError> errors = errors("""
            ---
            name: test
            guards:
              jwt0:
                type: jwt
            bindings:
              sse:
                type: sse
                kind: server
                routes:
                  - guarded:
                      jwt0: [ read:items ]
                    when:
                      - path: /items
                    exit: app
              app:
                type: test
                kind: server
            """);
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("guards.jwt0.type", errors.get(0).path());
        assertEquals(5, errors.get(0).line());
        assertEquals("unknown guard type 'jwt' (installed: none)", errors.get(0).message());
    }

    private static boolean matches(SsePathPattern pattern, String path)
    {
        final byte[] bytes = path.getBytes(StandardCharsets.UTF_8);
        return pattern.matches(new UnsafeBuffer(bytes), 0, bytes.length);
    }

    private void assertRefused(String yaml, String path, int line, int column, String message)
    {
        final List<ConfigError> errors = errors(yaml);
        assertEquals(1, errors.size(), errors.toString());
        final ConfigError error = errors.get(0);
        assertEquals(path, error.path(), errors.toString());
        assertEquals(line, error.line(), errors.toString());
        assertEquals(column, error.column(), errors.toString());
        if (message != null)
        {
            assertEquals(message, error.message());
        }
    }

    private static String yaml(String rest)
    {
        return """
            ---
            name: test
            bindings:
              sse:
                type: sse
                kind: server
                exit: app
            """ + rest + """
              app:
                type: test
                kind: server
            """;
    }

    private List<ConfigError> errors(String yaml)
    {
        return assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1)).errors();
    }
}
