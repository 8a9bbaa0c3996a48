/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zilla.bindings.echo.EchoBindingFactory;
import io.zilla.bindings.http.config.Http2FloodLimits;
import io.zilla.bindings.http.config.HttpAccessControlConfig;
import io.zilla.bindings.http.config.HttpConditionConfig;
import io.zilla.bindings.http.config.HttpOptionsConfig;
import io.zilla.bindings.http.config.HttpPattern;
import io.zilla.bindings.http.config.HttpWithConfig;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** http's part of zilla.yaml, read by the engine's config reader: its schema, options, conditions and with. */
class HttpConfigTest
{
    private final ConfigReader reader;

    HttpConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "http", new HttpBindingFactory().create(configuration),
            "echo", new EchoBindingFactory().create(configuration));
        this.reader = new ConfigReader(bindings, name -> null);
    }

    @Test
    void shouldBindOptionsRoutesAndWith()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              http:
                type: http
                kind: server
                options:
                  versions:
                    - http/1.1
                  access-control:
                    policy: cross-origin
                    allow:
                      origins: [ "https://Example.com" ]
                      methods: [ GET ]
                      credentials: true
                    max-age: 10
                    expose:
                      headers: [ X-Id ]
                  overrides:
                    X-Via: zilla
                  limits:
                    header-list-size: 8192
                    header-timeout: 5000
                routes:
                  - when:
                      - headers:
                          ":path": /items/{id}
                          ":method": GET
                    with:
                      headers:
                        overrides:
                          x-id: ${params.id}
                    exit: echo
                exit: echo
              echo:
                type: echo
                kind: server
            """, 1);
        final BindingConfig http = config.binding("http");
        final HttpOptionsConfig options = (HttpOptionsConfig) http.options();
        assertEquals(Set.of("http/1.1"), options.versions());
        assertEquals(new HttpAccessControlConfig(true, List.of("https://example.com"), List.of("GET"), null, true, 10,
            List.of("x-id")), options.accessControl());
        assertEquals(Map.of("x-via", "zilla"), options.overrides());
        assertEquals(8192, options.limits().headerListSize());
        assertEquals(5000, options.limits().headerTimeout());
        final HttpConditionConfig condition = (HttpConditionConfig) http.routes().get(0).when().get(0);
        assertEquals(Map.of(":path", "/items/{id}", ":method", "GET"), condition.headers());
        assertEquals(new HttpWithConfig(Map.of("x-id", "${params.id}")), http.routes().get(0).with());
    }

    @Test
    void shouldDefaultOptions()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", withOptions(""), 1);
        // no options: the reader binds none, and the factories use HttpOptionsConfig.DEFAULTS
        assertNull(config.binding("http").options());
        assertEquals(Set.of("http/1.1", "h2"), HttpOptionsConfig.DEFAULTS.versions());
    }

    @Test
    void shouldMatchPathTemplates()
    {
        final HttpPattern pattern = HttpPattern.compile("/items/{id}/parts/{part}", true);
        final int[] starts = new int[pattern.parts()];
        final int[] ends = new int[pattern.parts()];
        final byte[] path = "/items/42/parts/7?x=1".getBytes(StandardCharsets.US_ASCII);
        assertTrue(pattern.matches(new UnsafeBuffer(path), 0, path.length, starts, ends));
        final int id = pattern.paramPart("id");
        assertEquals("42", new String(path, starts[id], ends[id] - starts[id], StandardCharsets.US_ASCII));
        final int part = pattern.paramPart("part");
        assertEquals("7", new String(path, starts[part], ends[part] - starts[part], StandardCharsets.US_ASCII));
        final byte[] other = "/items/42/parts/".getBytes(StandardCharsets.US_ASCII);
        assertFalse(pattern.matches(new UnsafeBuffer(other), 0, other.length, null, null));
        final HttpPattern star = HttpPattern.compile("/echo*", true);
        final byte[] deep = "/echo/a/b".getBytes(StandardCharsets.US_ASCII);
        assertTrue(star.matches(new UnsafeBuffer(deep), 0, deep.length, null, null));
    }

    @Test
    void shouldReportABadVersion()
    {
        final List<ConfigError> errors = errors(withOptions("""
                options:
                  versions: [ http/2 ]
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.http.options.versions[0]", errors.get(0).path());
        assertEquals(8, errors.get(0).line());
        assertEquals("must be http/1.1 or h2", errors.get(0).message());
    }

    @Test
    void shouldBindClientVersions()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", withOptions("""
                options:
                  versions: [ h2 ]
            """).replace("kind: server\n    options", "kind: client\n    options"), 1);
        assertEquals(KindConfig.CLIENT, config.bindings().get(0).kind());
        final HttpOptionsConfig options = (HttpOptionsConfig) config.bindings().get(0).options();
        assertEquals(Set.of("h2"), options.versions());
    }

    @Test
    void shouldReportABadClientVersion()
    {
        final List<ConfigError> errors = errors(withOptions("""
                options:
                  versions:
                    - h2c
            """).replace("kind: server\n    options", "kind: client\n    options"));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.http.options.versions[0]", errors.get(0).path());
        assertEquals(9, errors.get(0).line());
        assertEquals(11, errors.get(0).column());
        assertEquals("must be http/1.1 or h2", errors.get(0).message());
    }

    @Test
    void shouldReportABadPolicy()
    {
        final List<ConfigError> errors = errors(withOptions("""
                options:
                  access-control:
                    policy: any-origin
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.http.options.access-control.policy", errors.get(0).path());
        assertEquals(9, errors.get(0).line());
        assertEquals(17, errors.get(0).column());
        assertEquals("must be same-origin or cross-origin", errors.get(0).message());
    }

    @Test
    void shouldReportABadOrigin()
    {
        final List<ConfigError> errors = errors(withOptions("""
                options:
                  access-control:
                    policy: cross-origin
                    allow:
                      origins: [ example.com ]
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.http.options.access-control.allow.origins[0]", errors.get(0).path());
        assertEquals("must be an origin such as https://example.com:9090, or *", errors.get(0).message());
    }

    @Test
    void shouldReportAnUnknownOptionAndABadLimit()
    {
        final List<ConfigError> errors = errors(withOptions("""
                options:
                  compression: gzip
                  limits:
                    header-list-size: 10
            """));
        assertEquals(2, errors.size(), errors.toString());
        assertEquals("bindings.http.options", errors.get(0).path());
        assertTrue(errors.get(0).message().contains("compression"), errors.get(0).toString());
        assertEquals("bindings.http.options.limits.header-list-size", errors.get(1).path());
        assertEquals(10, errors.get(1).line());
    }

    @Test
    void shouldRefuseLimitsBeyondWhatTheServerCanTime()
    {
        // now + header-timeout overflowed past 2^63 (a deadline in the past: 408 at once), and above 2^64 a value
        // wrapped to a small one; a stream table of 2^31 entries was allocated per connection
        final List<ConfigError> errors = errors(withOptions("""
                options:
                  limits:
                    header-timeout: 9223372036854775807
                    concurrent-streams: 2147483647
            """));
        assertEquals(List.of(
            "zilla.yaml:9:25 bindings.http.options.limits.header-timeout: must be at most 2147483647 (milliseconds, about "
                + "24 days)",
            "zilla.yaml:10:29 bindings.http.options.limits.concurrent-streams: must be at most 1024: each HTTP/2 "
                + "connection keeps a table of its streams this large (as the http client keeps to 1024 at most)"),
            errors.stream().map(ConfigError::toString).toList());
        assertRefused("""
                options:
                  limits:
                    header-timeout: 18446744073709551617
            """, "bindings.http.options.limits.header-timeout", 9,
            "must be at most 2147483647 (milliseconds, about 24 days)");
        final HttpOptionsConfig largest = (HttpOptionsConfig) reader.read("zilla.yaml", withOptions("""
                options:
                  limits:
                    header-timeout: 2147483647
                    concurrent-streams: 1024
            """), 1).binding("http").options();
        assertEquals(2_147_483_647L, largest.limits().headerTimeout());
        assertEquals(1024, largest.limits().concurrentStreams());
    }

    @Test
    void shouldReportAnUnknownCondition()
    {
        final List<ConfigError> errors = errors(withOptions("""
                routes:
                  - when:
                      - port: 80
                    exit: echo
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.http.routes[0].when[0]", errors.get(0).path());
        assertEquals("unknown property 'port'", errors.get(0).message());
    }

    @Test
    void shouldReportABadTemplate()
    {
        final List<ConfigError> errors = errors(withOptions("""
                routes:
                  - when:
                      - headers:
                          ":path": /items/{1d}
                    exit: echo
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.http.routes[0].when[0]", errors.get(0).path());
        assertTrue(errors.get(0).message().contains("'1d' is not a parameter name"), errors.get(0).toString());
    }

    @Test
    void shouldReportABadSubstitution()
    {
        final List<ConfigError> errors = errors(withOptions("""
                routes:
                  - with:
                      headers:
                        overrides:
                          x-id: ${env.ID}x
                    exit: echo
            """));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.http.routes[0].with", errors.get(0).path());
    }

    @Test
    void shouldRefuseAVault()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            vaults:
              server:
                type: filesystem
            bindings:
              http:
                type: http
                kind: server
                vault: server
                exit: echo
              echo:
                type: echo
                kind: server
            """);
        // the engine adds that no vault type filesystem is installed here
        final ConfigError error = errors.stream().filter(e -> e.path().equals("bindings.http.vault"))
            .findFirst().orElseThrow(() -> new AssertionError(errors));
        assertEquals(10, error.line());
        assertEquals("the http binding uses no vault: TLS is for a tls binding in front of it (server) or behind it (client)",
            error.message());
    }

    @Test
    void shouldRefuseAuthorization()
    {
        assertRefused("""
                options:
                  authorization:
                    jwt0:
                      credentials:
                        headers:
                          authorization: Bearer {credentials}
            """, "bindings.http.options.authorization", 8,
            "is not supported yet: it needs a guard, and guards are not built, so requests would go unchecked");
    }

    @Test
    void shouldRefuseRequestValidation()
    {
        assertRefused("""
                options:
                  requests:
                    - path: /items
                      method: POST
                      content-type: [ application/json ]
            """, "bindings.http.options.requests", 8,
            "is not supported yet: request validation is not built, so requests would go unchecked");
    }

    @Test
    void shouldRefuseAGuardedRoute()
    {
        // no guard type is installed: the engine refuses the guard, and so the route it guards (one message, at the guard);
        // a guarded route in a config built in code never matches (HttpServerGuardedRouteTest)
        assertRefused("""
            ---
            name: test
            guards:
              jwt0:
                type: jwt
            bindings:
              http:
                type: http
                kind: server
                routes:
                  - guarded:
                      jwt0: [ read:items ]
                    exit: echo
              echo:
                type: echo
                kind: server
            """, "guards.jwt0.type", 5, "unknown guard type 'jwt' (installed: none)");
    }

    @Test
    void shouldRefuseCorsOnAClient()
    {
        assertRefused(client("""
                options:
                  access-control:
                    policy: cross-origin
            """), "bindings.http.options.access-control", 8,
            "is for kind server: a client answers no CORS");
    }

    @Test
    void shouldRefuseServerLimitsOnAClient()
    {
        final List<ConfigError> errors = errors(client("""
                options:
                  versions: [ h2 ]
                  limits:
                    header-list-size: 8192
                    header-timeout: 5000
                    concurrent-streams: 10
            """));
        assertEquals(2, errors.size(), errors.toString());
        assertEquals("bindings.http.options.limits.header-timeout", errors.get(0).path());
        assertEquals(11, errors.get(0).line());
        assertEquals("is for kind server: a client waits for no request headers", errors.get(0).message());
        assertEquals("bindings.http.options.limits.concurrent-streams", errors.get(1).path());
        assertEquals(12, errors.get(1).line());
        assertEquals("is for kind server: a client keeps to the SETTINGS_MAX_CONCURRENT_STREAMS of its upstream",
            errors.get(1).message());
    }

    @Test
    void shouldRefuseTwoVersionsOnAClient()
    {
        assertRefused(client("""
                options:
                  versions: [ http/1.1, h2 ]
            """), "bindings.http.options.versions", 8,
            "a client speaks one version, http/1.1 or h2: choosing one by ALPN or Upgrade is not built");
    }

    @Test
    void shouldRefuseConcurrentStreamsWithoutHttp2()
    {
        assertRefused("""
                options:
                  versions: [ http/1.1 ]
                  limits:
                    concurrent-streams: 10
            """, "bindings.http.options.limits.concurrent-streams", 10,
            "is for HTTP/2, which versions leaves out");
    }

    @Test
    void shouldRefuseCorsSettingsWithTheSameOriginPolicy()
    {
        final List<ConfigError> errors = errors(withOptions("""
                options:
                  access-control:
                    policy: same-origin
                    allow:
                      origins: [ "https://example.com" ]
                    max-age: 10
                    expose:
                      headers: [ x-id ]
            """));
        assertEquals(3, errors.size(), errors.toString());
        assertEquals("bindings.http.options.access-control.allow", errors.get(0).path());
        assertEquals(10, errors.get(0).line());
        assertEquals("bindings.http.options.access-control.max-age", errors.get(1).path());
        assertEquals("bindings.http.options.access-control.expose", errors.get(2).path());
        errors.forEach(error -> assertEquals("is for policy cross-origin: same-origin answers no CORS", error.message()));
    }

    @Test
    void shouldRefuseAPseudoHeaderARequestHasNot()
    {
        final List<ConfigError> errors = errors(withOptions("""
                options:
                  overrides:
                    ":status": "200"
                routes:
                  - when:
                      - headers:
                          ":protocol": websocket
                    exit: echo
            """));
        assertEquals(2, errors.size(), errors.toString());
        assertEquals("bindings.http.options.overrides", errors.get(0).path());
        assertEquals("invalid name ':status': must be a header name, or :method, :scheme, :authority or :path",
            errors.get(0).message());
        assertEquals("bindings.http.routes[0].when[0].headers", errors.get(1).path());
    }

    @Test
    void shouldRefuseASubstitutionOtherThanParamsInOverrides()
    {
        assertRefused("""
                options:
                  overrides:
                    x-id: ${env.ID}
            """, "bindings.http.options", 7, "'${env.ID}': only ${params.name} may be substituted");
    }

    @Test
    void shouldReadHttp2FloodLimitsFromEngineProperties()
    {
        assertEquals(Http2FloodLimits.DEFAULTS, new HttpBinding(new EngineConfiguration()).floods());
        final HttpBinding binding = new HttpBinding(new EngineConfiguration()
            .with(HttpBinding.SERVER_MAX_RESETS, 50)
            .with(HttpBinding.SERVER_RESETS_WINDOW, 1000)
            .with(HttpBinding.SERVER_MAX_CONTINUATIONS, 4)
            .with(HttpBinding.SERVER_MAX_EMPTY_FRAMES, 2)
            .with(HttpBinding.SERVER_MAX_QUEUED_CONTROL_FRAMES, 100));
        assertEquals(new Http2FloodLimits(50, 1000, 4, 2, 100), binding.floods());
        final IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () ->
            new HttpBinding(new EngineConfiguration().with(HttpBinding.SERVER_MAX_RESETS, 0)));
        assertEquals("zilla.binding.http.server.max.resets: '0' is not a positive integer", zero.getMessage());
    }

    private static String withOptions(String options)
    {
        return """
            ---
            name: test
            bindings:
              http:
                type: http
                kind: server
            """ + options + """
                exit: echo
              echo:
                type: echo
                kind: server
            """;
    }

    // the yaml is refused with one error, at path and line, with message
    private void assertRefused(String yaml, String path, int line, String message)
    {
        final List<ConfigError> errors = errors(yaml.startsWith("---") ? yaml : withOptions(yaml));
        assertEquals(1, errors.size(), errors.toString());
        assertEquals(path, errors.get(0).path(), errors.toString());
        assertEquals(line, errors.get(0).line(), errors.toString());
        assertEquals(message, errors.get(0).message());
    }

    private static String client(String options)
    {
        return withOptions(options).replace("kind: server\n    options", "kind: client\n    options");
    }

    @Test
    void shouldRefuseHttpBindingsThatExitToEachOther()
    {
        // each request would open a request to the other binding, and so on without end
        final List<ConfigError> errors = errors("""
            name: test
            bindings:
              north:
                type: http
                kind: server
                routes:
                  - when:
                      - headers:
                          :path: /echo
                    exit: echo
                exit: south
              south:
                type: http
                kind: server
                exit: north
              echo:
                type: echo
                kind: server
            """);

        assertEquals(List.of("zilla.yaml:15:11 bindings.south.exit: exit 'north' closes a loop (north -> south -> north): "
            + "every stream would open another, without end"), errors.stream().map(ConfigError::toString).toList());
    }

    @Test
    void shouldRecordHttpMetricsOnlyWhereTheTypeRecordsThem()
    {
        final String yaml = """
            name: test
            telemetry:
              metrics:
                - http.*
            bindings:
              http:
                type: http
                kind: server
                telemetry:
                  metrics:
                    - http.duration
                exit: echo
              echo:
                type: echo
                kind: server
                telemetry:
                  metrics:
                    - http.*
            """;
        final List<ConfigError> errors = errors(yaml);
        assertEquals(List.of("zilla.yaml:18:11 bindings.echo.telemetry.metrics[0]: 'http.*' selects no metric an echo binding "
            + "records (it records: stream.opens.received, stream.opens.sent, stream.closes.received, stream.closes.sent, "
            + "stream.errors.received, stream.errors.sent, stream.data.received, stream.data.sent, stream.active.received, "
            + "stream.active.sent)"), errors.stream().map(ConfigError::toString).toList());

        // without the echo's list: the http binding records the one http metric it asks for
        final String echoRecordsNone = yaml.substring(0, yaml.lastIndexOf("    telemetry:"));
        final NamespaceConfig config = reader.read("zilla.yaml", echoRecordsNone, 1);
        assertEquals(Set.of("http.duration"), config.binding("http").metrics());
        assertEquals(Set.of(), config.binding("echo").metrics());
    }

    @Test
    void shouldBindAttributesInTheirOrderAndRefuseWhatLabelsNothing()
    {
        final String yaml = """
            name: test
            telemetry:
              metrics:
                - http.*
            bindings:
              http:
                type: http
                kind: server
                telemetry:
                  metrics:
                    - http.*
                  attributes:
                    status: ${http.response.status}
                    method: ${http.request.method}
                exit: echo
              echo:
                type: echo
                kind: server
            """;
        final NamespaceConfig config = reader.read("zilla.yaml", yaml, 1);
        assertEquals(List.of("status", "method"), List.copyOf(config.binding("http").attributes().keySet()));
        assertEquals("${http.request.method}", config.binding("http").attributes().get("method"));

        assertEquals(List.of("zilla.yaml:14:17 bindings.http.telemetry.attributes.method: unknown expression "
            + "'${http.request.verb}' for a http binding (known: ${http.request.method}, ${http.response.status})"),
            errors(yaml.replace("${http.request.method}", "${http.request.verb}")).stream().map(ConfigError::toString)
                .toList());
        assertEquals(List.of("zilla.yaml:14:17 bindings.http.telemetry.attributes.method: '${http.response.status}' is "
            + "attribute 'status' already: each expression labels once"),
            errors(yaml.replace("${http.request.method}", "${http.response.status}")).stream().map(ConfigError::toString)
                .toList());
        assertEquals(List.of("zilla.yaml:12:7 bindings.http.telemetry.attributes: attributes label the binding's "
            + "histograms, and its telemetry.metrics selects none (http.duration, http.request.size, http.response.size)"),
            errors(yaml.replace("- http.*\n      attributes", "- http.active.requests\n      attributes")).stream()
                .map(ConfigError::toString).toList());
        assertEquals(List.of("zilla.yaml:14:18 bindings.http.telemetry.attributes.binding: 'binding' is a label of every "
            + "series already (the exporters' own)"),
            errors(yaml.replace("method: ${http", "binding: ${http")).stream().map(ConfigError::toString).toList());
        assertEquals(List.of("zilla.yaml:16:23 bindings.http.telemetry.attributes.service.name: 'service.name' is a label of "
            + "every series already (telemetry.attributes)"),
            errors(yaml.replace("telemetry:\n  metrics:", "telemetry:\n  attributes:\n    service.name: x\n  metrics:")
                .replace("method: ${http", "service.name: ${http")).stream().map(ConfigError::toString).toList());
        final String echoAttributes = yaml + "    telemetry:\n      attributes:\n        method: ${http.request.method}\n";
        assertEquals(List.of("zilla.yaml:21:17 bindings.echo.telemetry.attributes.method: an echo binding has no "
            + "attributes"), errors(echoAttributes).stream().map(ConfigError::toString).toList());
    }

    private List<ConfigError> errors(String yaml)
    {
        return assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1)).errors();
    }
}
