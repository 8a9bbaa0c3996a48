/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tcp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.zilla.bindings.echo.EchoBindingFactory;
import io.zilla.bindings.tcp.config.TcpCidr;
import io.zilla.bindings.tcp.config.TcpConditionConfig;
import io.zilla.bindings.tcp.config.TcpOptionsConfig;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import org.junit.jupiter.api.Test;

/** tcp's part of zilla.yaml, read by the engine's config reader: its schema, and its options and conditions. */
class TcpConfigTest
{
    private static final String PORT_MESSAGE = "must be an integer, a range \"8000-8010\" or a list";

    private final ConfigReader reader;

    TcpConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "tcp", new TcpBindingFactory().create(configuration),
            "echo", new EchoBindingFactory().create(configuration));
        this.reader = new ConfigReader(bindings, name -> null);
    }

    @Test
    void shouldBindServerOptionsAndConditions()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 0.0.0.0
                  port: [ 8080, "9000-9002", 9001 ]
                  backlog: 128
                  nodelay: false
                  keepalive: true
                routes:
                  - when:
                      - cidr: 10.0.0.0/8
                        port: 8080
                      - authority: "*.example.com"
                    exit: app
              app:
                type: echo
                kind: server
            """, 1);

        final BindingConfig net = config.binding("net");
        assertEquals(KindConfig.SERVER, net.kind());
        final TcpOptionsConfig options = (TcpOptionsConfig) net.options();
        assertEquals("0.0.0.0", options.host());
        assertArrayEquals(new int[] {8080, 9000, 9001, 9002}, options.ports());
        assertEquals(128, options.backlog());
        assertFalse(options.nodelay());
        assertTrue(options.keepalive());

        final List<?> when = net.routes().get(0).when();
        assertEquals(new TcpConditionConfig(TcpCidr.parse("10.0.0.0/8"), null, new int[] {8080}), when.get(0));
        assertEquals(new TcpConditionConfig(null, "*.example.com", null), when.get(1));
    }

    @Test
    void shouldBindClientWithoutOptions()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              north:
                type: tcp
                kind: client
            """, 1);

        assertNull(config.binding("north").options());
    }

    @Test
    void shouldReportABadPortWithItsPlace()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              north_tcp_server:
                type: tcp
                kind: server
                options:
                  host: 0.0.0.0
                  port: true
                exit: app
              app:
                type: echo
                kind: server
            """);

        assertEquals(List.of(new ConfigError("zilla.yaml", 9, 13, "bindings.north_tcp_server.options.port", PORT_MESSAGE)),
            errors);
    }

    @Test
    void shouldReportBadPortsInListsRangesAndRoutes()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 0.0.0.0
                  port: [ 8080, "http" ]
                routes:
                  - when:
                      - port: 70000
                    exit: app
              app:
                type: echo
                kind: server
            """);

        assertEquals(2, errors.size(), errors.toString());
        assertEquals("bindings.net.options.port[1]", errors.get(0).path());
        assertEquals(9, errors.get(0).line());
        assertEquals("bindings.net.routes[0].when[0].port", errors.get(1).path());
        assertEquals(12, errors.get(1).line());
        errors.forEach(error -> assertTrue(error.message().startsWith("must be"), error.toString()));
    }

    @Test
    void shouldReportWhatTheAdaptersRefuse()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 0.0.0.0
                  port: 9000-8000
                routes:
                  - when:
                      - cidr: 10.0.0.0/33
                    exit: app
              app:
                type: echo
                kind: server
            """);

        assertEquals(2, errors.size(), errors.toString());
        assertEquals("bindings.net.options", errors.get(0).path().substring(0, "bindings.net.options".length()));
        assertTrue(errors.get(0).message().contains("9000 is above 8000"), errors.get(0).toString());
        assertTrue(errors.get(1).path().startsWith("bindings.net.routes[0].when[0]"), errors.get(1).toString());
        assertTrue(errors.get(1).message().contains("prefix length"), errors.get(1).toString());
    }

    @Test
    void shouldRequireHostAndPortOfAServer()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              net:
                type: tcp
                kind: server
                exit: app
              app:
                type: echo
                kind: server
            """);

        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.net", errors.get(0).path());
        assertTrue(errors.get(0).message().contains("options"), errors.get(0).toString());
    }

    @Test
    void shouldRefuseAnUnknownOptionAndKind()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              net:
                type: tcp
                kind: proxy
              north:
                type: tcp
                kind: client
                options:
                  hostname: example.com
            """);

        assertEquals(2, errors.size(), errors.toString());
        assertEquals("bindings.net.kind", errors.get(0).path());
        assertEquals("bindings.north.options", errors.get(1).path());
        assertTrue(errors.get(1).message().contains("hostname"), errors.get(1).toString());
    }

    @Test
    void shouldRefuseOptionsThatTheKindIgnores()
    {
        // a client connects to one port and never listens; a server never connects: accepted, each would do nothing
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 0.0.0.0
                  port: 8080
                  timeout: 1000
                exit: app
              app:
                type: echo
                kind: server
              north:
                type: tcp
                kind: client
                options:
                  host: example.com
                  port: 9092-9094
                  backlog: 128
            """);

        assertEquals(List.of(
            "zilla.yaml:10:16 bindings.net.options.timeout: is a client's connect timeout: a server does not connect",
            "zilla.yaml:20:13 bindings.north.options.port: a client connects to one port: must be an integer",
            "zilla.yaml:21:16 bindings.north.options.backlog: is a server's accept queue: a client does not listen"),
            errors.stream().map(ConfigError::toString).toList());
    }

    @Test
    void shouldRefuseAClientAimedAtAServerOfTheSameFile()
    {
        // the server routes what it accepts to the client, which connects to the server: a new connection each lap
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              net:
                type: tcp
                kind: server
                options:
                  host: 0.0.0.0
                  port: [ 8080, 9090 ]
                exit: north
              north:
                type: tcp
                kind: client
                options:
                  host: localhost
                  port: 9090
              south:
                type: tcp
                kind: client
                options:
                  host: 127.0.0.1
                  port: 9091
            """);

        assertEquals(List.of("zilla.yaml:16:13 bindings.north.options.port: connects to this zilla's own listener: "
            + "bindings.net listens on 0.0.0.0:9090, and a zilla that connects to itself loops"),
            errors.stream().map(ConfigError::toString).toList());
    }

    @Test
    void shouldRefuseTwoServersOnOnePort()
    {
        // both would listen in the engine's own reuse-port group, and the kernel would split the connections
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              north:
                type: tcp
                kind: server
                options:
                  host: 0.0.0.0
                  port: [ 8080, 8443 ]
                exit: app
              south:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: 8443
                exit: app
              east:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: 9090
                exit: app
              app:
                type: echo
                kind: server
            """);

        assertEquals(List.of("zilla.yaml:16:13 bindings.south.options.port: port 8443 is bindings.north's already (0.0.0.0): "
            + "two servers on one port would split its connections"),
            errors.stream().map(ConfigError::toString).toList());
    }

    private List<ConfigError> errors(String yaml)
    {
        return assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1)).errors();
    }
}
