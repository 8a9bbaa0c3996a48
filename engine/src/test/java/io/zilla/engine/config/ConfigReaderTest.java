/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import java.util.Map;

import io.zilla.engine.config.TestBindings.MappingCondition;
import io.zilla.engine.config.TestBindings.MappingWith;
import io.zilla.engine.config.TestBindings.TcpCondition;
import io.zilla.engine.config.TestBindings.TcpOptions;
import org.junit.jupiter.api.Test;

/** A valid zilla.yaml, bound into records. */
class ConfigReaderTest
{
    /** Zilla's public tcp.echo example, unchanged. */
    static final String TCP_ECHO = """
        ---
        name: example
        bindings:
          north_tcp_server:
            type: tcp
            kind: server
            options:
              host: 0.0.0.0
              port: 12345
            routes:
              - when:
                  - port: 12345
                exit: north_echo_server
          north_echo_server:
            type: echo
            kind: server
        telemetry:
          exporters:
            stdout_logs_exporter:
              type: stdout
        """;

    private static final long NAMESPACE_3 = 3L << 32;

    @Test
    void shouldBindTheTcpEchoExample()
    {
        final NamespaceConfig namespace = reader(Map.of()).read("zilla.yaml", TCP_ECHO, 3);

        assertEquals("example", namespace.name());
        assertEquals(List.of(
            new BindingConfig(NAMESPACE_3 | 1, "north_tcp_server", "tcp", KindConfig.SERVER, null,
                new TcpOptions("0.0.0.0", List.of(12345)),
                List.of(new RouteConfig(0, List.of(new TcpCondition(null, List.of(12345))), null, "north_echo_server",
                    NAMESPACE_3 | 2, Map.of()))),
            new BindingConfig(NAMESPACE_3 | 2, "north_echo_server", "echo", KindConfig.SERVER, null, null, List.of())),
            namespace.bindings());
        assertEquals(List.of(), namespace.vaults());
        assertEquals(List.of(), namespace.guards());
        assertEquals(new TelemetryConfig(List.of(new ComponentConfig("stdout_logs_exporter", "stdout", null))),
            namespace.telemetry());
    }

    @Test
    void shouldRouteToTheFirstMatchingRouteThenTheDefaultExit()
    {
        final NamespaceConfig namespace = reader(Map.of()).read("zilla.yaml", """
            name: routes
            bindings:
              tcp_server:
                type: tcp
                kind: server
                options:
                  port: 8000-8002
                routes:
                  - when:
                      - cidr: 10.0.0.0/8
                      - port: [8001, 8002]
                    exit: internal
                exit: public
              internal:
                type: echo
                kind: server
              public:
                type: echo
                kind: server
            """, 7);

        final BindingConfig server = namespace.binding("tcp_server");
        assertEquals(new TcpOptions(null, List.of(8000, 8001, 8002)), server.options());
        assertEquals(List.of(
            new RouteConfig(0, List.of(new TcpCondition("10.0.0.0/8", List.of()), new TcpCondition(null, List.of(8001, 8002))),
                null, "internal", 7L << 32 | 2, Map.of()),
            new RouteConfig(1, List.of(), null, "public", 7L << 32 | 3, Map.of())),
            server.routes());
        assertEquals("internal", server.resolve(new TcpCondition(null, List.of(8001, 8002))::equals).exit());
        assertEquals("public", server.resolve(condition -> false).exit());
        assertEquals("public", server.resolveAny().exit());
    }

    @Test
    void shouldBindWithOfAMappingRoute()
    {
        final ConfigReader reader = new ConfigReader(
            TestBindings.installed(new TestBindings.Mapping(), new TestBindings.Echo()),
            Map.of("filesystem", new TestVault("filesystem")), name -> null);

        final NamespaceConfig namespace = reader.read("zilla.yaml", """
            name: mapping
            vaults:
              server:
                type: filesystem
            bindings:
              map:
                type: mapping
                kind: proxy
                vault: server
                routes:
                  - when:
                      - topic: items
                    with:
                      topic: items-snapshots
                      key: [id, region]
                    exit: sink
              sink:
                type: echo
                kind: server
            """, -1);

        final BindingConfig map = namespace.binding("map");
        assertEquals(0xFFFF_FFFF_0000_0001L, map.id());
        assertEquals("server", map.vault());
        assertEquals(List.of(new RouteConfig(0, List.of(new MappingCondition("items")),
            new MappingWith("items-snapshots", List.of("id", "region")), "sink", 0xFFFF_FFFF_0000_0002L,
            Map.of())), map.routes());
        assertEquals(List.of(new ComponentConfig("server", "filesystem", null)), namespace.vaults());
        assertEquals(List.of(), namespace.guards());
        assertSame(TelemetryConfig.EMPTY, namespace.telemetry());
    }

    @Test
    void shouldNeverMatchAGuardedRouteWithoutAGuardToCheckIt()
    {
        // a file with a guard is refused until a guard type is installed; a config built in code may still hold one,
        // and a route that names roles must not serve everyone because nothing checks them
        final RouteConfig guarded = new RouteConfig(0, List.of(), null, "sink", 2L, Map.of("jwt0", List.of("read:items")));
        final RouteConfig open = new RouteConfig(1, List.of(), null, "public", 3L, Map.of());
        final BindingConfig binding = new BindingConfig(1L, "map", "mapping", KindConfig.PROXY, null, null,
            List.of(guarded, open));

        assertFalse(guarded.matches(condition -> true));
        assertEquals("public", binding.resolveAny().exit());
    }

    @Test
    void shouldSubstituteEnvironmentVariablesInStrings()
    {
        final NamespaceConfig namespace = reader(Map.of("HOST", "example.com", "ZONE", "eu"))
            .read("zilla.yaml", """
                name: env
                bindings:
                  server:
                    type: tcp
                    kind: server
                    options:
                      host: ${{env.ZONE}}.${{ env.HOST }}
                """, 1);

        assertEquals(new TcpOptions("eu.example.com", List.of()), namespace.binding("server").options());
    }

    @Test
    void shouldTypeAPlainScalarThatIsOnlyAVariableAsYamlWould()
    {
        final NamespaceConfig namespace = reader(Map.of("PORT", "8080", "RANGE", "9000-9001"))
            .read("zilla.yaml", """
                name: env
                bindings:
                  server:
                    type: tcp
                    kind: server
                    options:
                      port: ${{env.PORT}}
                    routes:
                      - when:
                          - port: ${{env.RANGE}}
                        exit: echo
                  echo:
                    type: echo
                    kind: server
                """, 1);

        assertEquals(new TcpOptions(null, List.of(8080)), namespace.binding("server").options());
        assertEquals(List.of(new TcpCondition(null, List.of(9000, 9001))), namespace.binding("server").routes().get(0).when());
    }

    @Test
    void shouldKeepAQuotedVariableAString()
    {
        final NamespaceConfig namespace = reader(Map.of("HOST", "1234"))
            .read("zilla.yaml", """
                name: env
                bindings:
                  server:
                    type: tcp
                    kind: server
                    options:
                      host: "${{env.HOST}}"
                """, 1);

        assertEquals(new TcpOptions("1234", List.of()), namespace.binding("server").options());
    }

    @Test
    void shouldAcceptABindingWithoutOptionsOrRoutes()
    {
        final NamespaceConfig namespace = reader(Map.of()).read("zilla.yaml", """
            name: minimal
            bindings:
              client:
                type: tcp
                kind: client
            """, 0);

        final BindingConfig client = namespace.binding("client");
        assertEquals(1L, client.id());
        assertNull(client.options());
        assertEquals(List.of(), client.routes());
        assertNull(client.resolveAny());
    }

    static ConfigReader reader(Map<String, String> environment)
    {
        return new ConfigReader(TestBindings.installed(new TestBindings.Tcp(), new TestBindings.Echo()), environment::get);
    }
}
