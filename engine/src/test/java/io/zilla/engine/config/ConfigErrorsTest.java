/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import java.util.Set;

import io.zilla.engine.metrics.EngineMetrics;
import io.zilla.engine.metrics.Metric;
import org.junit.jupiter.api.Test;

/** Each kind of problem in a zilla.yaml: where it is reported (line:column and path) and what it says. */
class ConfigErrorsTest
{
    @Test
    void shouldSayWhatAPortMayBe()
    {
        assertErrors("""
            name: example
            bindings:
              north_tcp_server:
                type: tcp
                kind: server
                options:
                  host: 0.0.0.0
                  port: true
            """,
            "zilla.yaml:8:13 bindings.north_tcp_server.options.port: must be an integer, a range \"8000-8010\" or a list");
    }

    @Test
    void shouldReportTheProblemOfTheOnlyAlternativeOfTheRightShape()
    {
        assertErrors("""
            name: example
            bindings:
              server:
                type: tcp
                kind: server
                options:
                  port: 70000
                routes:
                  - when:
                      - port: 8000-80x0
                      - port: [8000, "8001"]
                    exit: app
              app:
                type: echo
                kind: server
            """,
            "zilla.yaml:7:13 bindings.server.options.port: must be at most 65535",
            "zilla.yaml:10:19 bindings.server.routes[0].when[0].port: must be a port range such as \"8000-8010\"",
            "zilla.yaml:11:26 bindings.server.routes[0].when[1].port[1]: must be an integer, not a string");
    }

    @Test
    void shouldListTheExpectedTypesOfAnAlternativeWithoutMessage()
    {
        assertErrors(mappingReader(), """
            name: example
            bindings:
              map:
                type: mapping
                kind: proxy
                routes:
                  - with:
                      topic: items
                      key: true
                    exit: sink
              sink:
                type: echo
                kind: server
            """,
            "zilla.yaml:9:16 bindings.map.routes[0].with.key: must be a string or an array, not a boolean");
    }

    @Test
    void shouldReportAnUnknownBindingType()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: foo
                kind: server
            """,
            "zilla.yaml:4:11 bindings.x.type: unknown binding type 'foo' (installed: echo, tcp)");
    }

    @Test
    void shouldReportAKindThatTheTypeDoesNotSupport()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: echo
                kind: client
              y:
                type: tcp
                kind: servr
            """,
            "zilla.yaml:5:11 bindings.x.kind: type 'echo' does not support kind 'client' (supported: server)",
            "zilla.yaml:8:11 bindings.y.kind: type 'tcp' does not support kind 'servr' (supported: client, server)");
    }

    @Test
    void shouldReportUnknownExits()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: tcp
                kind: server
                routes:
                  - exit: y
                exit: z
            """,
            "zilla.yaml:7:15 bindings.x.routes[0].exit: unknown exit 'y'",
            "zilla.yaml:8:11 bindings.x.exit: unknown exit 'z'");
    }

    @Test
    void shouldReportUnknownVaultsAndGuards()
    {
        assertErrors("""
            name: example
            guards:
              jwt0:
                type: jwt
            bindings:
              x:
                type: tcp
                kind: server
                vault: secrets
                routes:
                  - guarded:
                      jwt0: [read]
                      jwt1: [write]
                    exit: y
              y:
                type: echo
                kind: server
            """,
            "zilla.yaml:4:11 guards.jwt0.type: unknown guard type 'jwt' (installed: none)",
            "zilla.yaml:9:12 bindings.x.vault: unknown vault 'secrets'",
            "zilla.yaml:13:11 bindings.x.routes[0].guarded: unknown guard 'jwt1'");
    }

    @Test
    void shouldRefuseEveryGuardWhileNoGuardTypeIsInstalled()
    {
        // accepted, a guard would protect nothing: an http route guarded by a jwt guard answered everyone
        assertErrors("""
            name: example
            guards:
              jwt0:
                type: jwt
                options:
                  issuer: https://auth.example.com
              x509:
                type: x509
              made_up:
                type: nonsense
            bindings:
              x:
                type: tcp
                kind: server
                routes:
                  - guarded:
                      jwt0: [read]
                    exit: y
              y:
                type: echo
                kind: server
            """,
            "zilla.yaml:4:11 guards.jwt0.type: unknown guard type 'jwt' (installed: none)",
            "zilla.yaml:8:11 guards.x509.type: unknown guard type 'x509' (installed: none)",
            "zilla.yaml:10:11 guards.made_up.type: unknown guard type 'nonsense' (installed: none)");
    }

    @Test
    void shouldRefuseUnknownMetricsAndExporterOptions()
    {
        assertErrors("""
            name: example
            telemetry:
              attributes:
                service.namespace: example
              metrics:
                - stream.active.received
                - http.request.size
                - grpc.*
              exporters:
                prometheus_metric_exporter:
                  type: prometheus
                  options:
                    endpoints:
                      - scheme: https
                        path: /metrics
                        port: 7190
                      - scheme: http
                        path: /metrics
                      - port: 7190
                        path: metrics
                      - port: 70000
                statsd_exporter:
                  type: statsd
                stdout_logs_exporter:
                  type: stdout
                  options:
                    colour: true
            """,
            "zilla.yaml:7:7 telemetry.metrics[1]: unknown metric 'http.request.size' (installed: " + INSTALLED + ")",
            "zilla.yaml:8:7 telemetry.metrics[2]: unknown metric 'grpc.*' (installed: " + INSTALLED + ")",
            "zilla.yaml:14:21 telemetry.exporters.prometheus_metric_exporter.options.endpoints[0].scheme: "
                + "unknown scheme 'https' (known: http)",
            "zilla.yaml:17:13 telemetry.exporters.prometheus_metric_exporter.options.endpoints[1]: "
                + "a prometheus endpoint needs a port",
            "zilla.yaml:19:13 telemetry.exporters.prometheus_metric_exporter.options.endpoints[2]: "
                + "a prometheus endpoint needs a scheme: http",
            "zilla.yaml:19:19 telemetry.exporters.prometheus_metric_exporter.options.endpoints[2].port: "
                + "port 7190 is endpoints[0]'s already: each endpoint needs its own port",
            "zilla.yaml:20:19 telemetry.exporters.prometheus_metric_exporter.options.endpoints[2].path: "
                + "a path starts with /, such as /metrics",
            "zilla.yaml:21:13 telemetry.exporters.prometheus_metric_exporter.options.endpoints[3]: "
                + "a prometheus endpoint needs a scheme: http",
            "zilla.yaml:21:19 telemetry.exporters.prometheus_metric_exporter.options.endpoints[3].port: "
                + "a port is 1 to 65535, not 70000",
            "zilla.yaml:23:13 telemetry.exporters.statsd_exporter.type: unknown exporter type 'statsd' "
                + "(installed: otlp, prometheus, stdout)",
            "zilla.yaml:26:7 telemetry.exporters.stdout_logs_exporter.options: a stdout exporter has no options");
    }

    @Test
    void shouldRefusePrometheusWithoutEndpoints()
    {
        assertErrors("""
            name: example
            telemetry:
              exporters:
                prometheus_metric_exporter:
                  type: prometheus
            """,
            "zilla.yaml:4:5 telemetry.exporters.prometheus_metric_exporter: a prometheus exporter needs options.endpoints: "
                + "at least one {scheme: http, port, path}");
    }

    @Test
    void shouldRefuseOtlpOptionsItWouldNotHonour()
    {
        assertErrors("""
            name: example
            telemetry:
              exporters:
                otlp_exporter:
                  type: otlp
                  options:
                    interval: 0
                    signals:
                      - metrics
                      - logs
                      - traces
                      - logs
                    endpoint:
                      protocol: grpc
                      location: otel-collector:4318
                      overrides:
                        metrics: v1/metrics
                        logs: v1/logs
                      headers:
                        authorization:
                          - Bearer
                      timeout: 5
                    batch: 10
                no_location_exporter:
                  type: otlp
                  options:
                    endpoint:
                      protocol: http
                no_endpoint_exporter:
                  type: otlp
                  options:
                    interval: 1.5
                    signals: metrics
                no_options_exporter:
                  type: otlp
            """,
            "zilla.yaml:7:19 telemetry.exporters.otlp_exporter.options.interval: an interval is a whole number of "
                + "seconds, at least 1, not 0",
            "zilla.yaml:11:13 telemetry.exporters.otlp_exporter.options.signals[2]: unknown signal 'traces' "
                + "(known: metrics, logs)",
            "zilla.yaml:12:13 telemetry.exporters.otlp_exporter.options.signals[3]: signal 'logs' is listed twice",
            "zilla.yaml:14:21 telemetry.exporters.otlp_exporter.options.endpoint.protocol: unknown protocol 'grpc' "
                + "(known: http)",
            "zilla.yaml:15:21 telemetry.exporters.otlp_exporter.options.endpoint.location: a location is the "
                + "collector's http(s) URI, such as http://otel-collector:4318, not 'otel-collector:4318'",
            "zilla.yaml:17:22 telemetry.exporters.otlp_exporter.options.endpoint.overrides.metrics: an override is a "
                + "path such as /v1/metrics, or an http(s) URI, not 'v1/metrics'",
            "zilla.yaml:18:19 telemetry.exporters.otlp_exporter.options.endpoint.overrides.logs: an override is a "
                + "path such as /v1/logs, or an http(s) URI, not 'v1/logs'",
            "zilla.yaml:20:13 telemetry.exporters.otlp_exporter.options.endpoint.headers.authorization: a header's "
                + "value is a string",
            "zilla.yaml:22:20 telemetry.exporters.otlp_exporter.options.endpoint.timeout: unknown endpoint property "
                + "'timeout' (known: headers, location, overrides, protocol)",
            "zilla.yaml:23:16 telemetry.exporters.otlp_exporter.options.batch: unknown option 'batch' "
                + "(known: endpoint, interval, signals)",
            "zilla.yaml:27:9 telemetry.exporters.no_location_exporter.options.endpoint: an otlp endpoint needs a "
                + "location: the collector's http(s) URI, such as http://otel-collector:4318",
            "zilla.yaml:31:7 telemetry.exporters.no_endpoint_exporter.options: an otlp exporter needs "
                + "options.endpoint.location: the collector's http(s) URI, such as http://otel-collector:4318",
            "zilla.yaml:32:19 telemetry.exporters.no_endpoint_exporter.options.interval: an interval is a whole number "
                + "of seconds, at least 1, not 1.5",
            "zilla.yaml:33:18 telemetry.exporters.no_endpoint_exporter.options.signals: signals is a list of at least "
                + "one signal, such as [metrics]",
            "zilla.yaml:34:5 telemetry.exporters.no_options_exporter: an otlp exporter needs options.endpoint.location: "
                + "the collector's http(s) URI, such as http://otel-collector:4318");
    }

    @Test
    void shouldBindOtlpOptionsWithTheirDefaults()
    {
        final NamespaceConfig namespace = reader().read("zilla.yaml", """
            name: example
            telemetry:
              exporters:
                otlp_exporter:
                  type: otlp
                  options:
                    endpoint:
                      location: http://otel-collector:4318/
                      headers:
                        authorization: Bearer token
                full_exporter:
                  type: otlp
                  options:
                    interval: 5
                    signals: [logs]
                    endpoint:
                      protocol: http
                      location: https://otel-collector:4318
                      overrides:
                        metrics: https://metrics.example.com/ingest
                        logs: /otlp/v1/logs
            """, 1);

        // every signal built unless given, as Zilla's default is every signal it supports
        final OtlpOptionsConfig defaults = (OtlpOptionsConfig) namespace.telemetry().exporters().get(0).options();
        assertEquals(new OtlpOptionsConfig(30, List.of("metrics", "logs"), new OtlpOptionsConfig.Endpoint("http",
            "http://otel-collector:4318/", new OtlpOptionsConfig.Overrides("/v1/metrics", "/v1/logs"),
            Map.of("authorization", "Bearer token"))), defaults);
        assertEquals("http://otel-collector:4318/v1/metrics", defaults.endpoint().metricsUri());
        assertEquals("http://otel-collector:4318/v1/logs", defaults.endpoint().logsUri());
        final OtlpOptionsConfig full = (OtlpOptionsConfig) namespace.telemetry().exporters().get(1).options();
        assertEquals(5, full.interval());
        assertEquals(List.of("logs"), full.signals());
        assertFalse(full.pushes("metrics"));
        assertEquals("https://metrics.example.com/ingest", full.endpoint().metricsUri());
        assertEquals("https://otel-collector:4318/otlp/v1/logs", full.endpoint().logsUri());
    }

    @Test
    void shouldRefuseBindingMetricsTheNamespaceDoesNotDeclare()
    {
        assertErrors("""
            name: example
            telemetry:
              metrics:
                - stream.data.*
            bindings:
              tcp_server:
                type: tcp
                kind: server
                telemetry:
                  metrics:
                    - stream.data.received
                    - stream.opens.*
                    - http.*
                exit: tcp_server1
              tcp_server1:
                type: tcp
                kind: client
            """,
            "zilla.yaml:12:11 bindings.tcp_server.telemetry.metrics[1]: 'stream.opens.*' selects no metric of "
                + "telemetry.metrics: a binding records only metrics the namespace declares",
            "zilla.yaml:13:11 bindings.tcp_server.telemetry.metrics[2]: unknown metric 'http.*' (installed: "
                + INSTALLED + ")");
    }

    @Test
    void shouldBindTheMetricsBothListsSelect()
    {
        final NamespaceConfig namespace = reader().read("zilla.yaml", """
            name: example
            telemetry:
              attributes:
                service.namespace: example
              metrics:
                - stream.opens.*
                - stream.data.received
              exporters:
                prometheus_metric_exporter:
                  type: prometheus
                  options:
                    endpoints:
                      - scheme: http
                        port: 7190
            bindings:
              tcp_server:
                type: tcp
                kind: server
                telemetry:
                  metrics:
                    - stream.*
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """, 1);

        assertEquals(Set.of("stream.opens.received", "stream.opens.sent", "stream.data.received"),
            namespace.bindings().get(0).metrics());
        assertEquals(Set.of(), namespace.bindings().get(1).metrics());
        assertEquals(Map.of("service.namespace", "example"), namespace.telemetry().attributes());
        assertEquals(new PrometheusOptionsConfig(List.of(new PrometheusOptionsConfig.Endpoint("http", 7190, "/metrics"))),
            namespace.telemetry().exporters().get(0).options());
    }

    @Test
    void shouldRefuseExitsThatLoop()
    {
        // each lap opens a new stream: a loop runs until the worker's memory or the file descriptors are gone
        assertErrors("""
            name: example
            bindings:
              self:
                type: tcp
                kind: server
                exit: self
              a:
                type: tcp
                kind: server
                routes:
                  - when:
                      - port: 8080
                    exit: b
                exit: sink
              b:
                type: tcp
                kind: server
                exit: c
              c:
                type: tcp
                kind: server
                exit: a
              sink:
                type: echo
                kind: server
            """,
            "zilla.yaml:6:11 bindings.self.exit: exit 'self' is this binding itself: every stream would open another, "
                + "without end",
            "zilla.yaml:22:11 bindings.c.exit: exit 'a' closes a loop (a -> b -> c -> a): every stream would open another, "
                + "without end");
    }

    @Test
    void shouldRefuseTheExitsOfAKindThatHasNone()
    {
        // a tcp client connects to the network: its routes say where it may connect, and an exit would be ignored
        assertErrors("""
            name: example
            bindings:
              north:
                type: tcp
                kind: client
                routes:
                  - when:
                      - cidr: 10.0.0.0/8
                  - when:
                      - cidr: 192.168.0.0/16
                    exit: south
                exit: south
              south:
                type: echo
                kind: server
            """,
            "zilla.yaml:11:9 bindings.north.routes[1].exit: a tcp client has no exits: it ends the streams it takes",
            "zilla.yaml:12:5 bindings.north.exit: a tcp client has no exits: it ends the streams it takes");
    }

    @Test
    void shouldRequireTheExitOfARouteOfAKindThatHasThem()
    {
        assertErrors("""
            name: example
            bindings:
              north:
                type: tcp
                kind: server
                routes:
                  - when:
                      - port: 8080
            """,
            "zilla.yaml:7:9 bindings.north.routes[0]: missing required property 'exit'");
    }

    @Test
    void shouldReportDuplicateNamesAtTheSecondOccurrence()
    {
        assertErrors("""
            name: example
            bindings:
              a:
                type: echo
                kind: server
              a:
                type: echo
                kind: server
            telemetry:
              exporters:
                logs:
                  type: stdout
                logs:
                  type: stdout
            """,
            "zilla.yaml:6:3 bindings: duplicate binding name 'a' (first defined at line 3)",
            "zilla.yaml:13:5 telemetry.exporters: duplicate exporter name 'logs' (first defined at line 11)");
    }

    @Test
    void shouldReportADuplicatePropertyAtTheSecondOccurrence()
    {
        assertErrors("""
            name: example
            bindings:
              a:
                type: tcp
                kind: server
                kind: client
            """,
            "zilla.yaml:6:5 bindings.a: duplicate property 'kind' (first defined at line 5)");
    }

    @Test
    void shouldReportMissingRequiredProperties()
    {
        assertErrors("""
            bindings:
              x:
                type: tcp
              y:
                kind: server
            """,
            "zilla.yaml:1:1 missing required property 'name'",
            "zilla.yaml:2:3 bindings.x: missing required property 'kind'",
            "zilla.yaml:4:3 bindings.y: missing required property 'type'");
    }

    @Test
    void shouldReportUnknownPropertiesAtTheirKey()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: tcp
                kind: server
                colour: red
                options:
                  hots: localhost
            """,
            "zilla.yaml:6:5 bindings.x: unknown property 'colour'",
            "zilla.yaml:8:7 bindings.x.options: unknown property 'hots'");
    }

    @Test
    void shouldReportWhatATypeDoesNotAllow()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: echo
                kind: server
                options:
                  port: 8080
                exit: x
            """,
            "zilla.yaml:6:5 bindings.x.options: is not allowed here",
            "zilla.yaml:8:5 bindings.x.exit: an echo server has no exits: it ends the streams it takes");
    }

    @Test
    void shouldReportWrongTypesAndNames()
    {
        assertErrors("""
            name: 42
            bindings:
              9lives:
                type: echo
                kind: server
            telemetry:
              metrics: stream.opens
            """,
            "zilla.yaml:1:7 name: must be a string, not an integer",
            "zilla.yaml:3:3 bindings: invalid name '9lives': must start with a letter, then letters, digits, dots, "
                + "underscores or dashes",
            "zilla.yaml:7:12 telemetry.metrics: must be an array, not a string");
    }

    @Test
    void shouldReportOnlyTheTypeOfAValueOfTheWrongType()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: 5
                kind: [server]
            """,
            "zilla.yaml:4:11 bindings.x.type: must be a string, not an integer",
            "zilla.yaml:5:5 bindings.x.kind: must be a string, not an array");
    }

    @Test
    void shouldReportAnEmptyValueAtItsKey()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: tcp
                kind: server
                options:
            """,
            "zilla.yaml:6:5 bindings.x.options: must be an object, not null");
    }

    @Test
    void shouldRefuseYamlAliasesRatherThanReadTheirNames()
    {
        assertErrors("""
            name: &type tcp
            bindings:
              x:
                type: *type
                kind: server
            """,
            "zilla.yaml:4:11 bindings.x.type: YAML aliases (*type) are not supported");
    }

    @Test
    void shouldReportAValueThatTheBindingTypeRefuses()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: tcp
                kind: server
                options:
                  port: 8010-8000
            """,
            "zilla.yaml:6:5 bindings.x.options: port range 8010-8000 ends before it starts");
    }

    @Test
    void shouldReportAnUnsetEnvironmentVariableInsteadOfWhatItsTextBreaks()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: tcp
                kind: server
                options:
                  host: ${{env.HOST}}-${{env.ZONE}}
                  port: ${{env.PORT}}
            """,
            "zilla.yaml:7:13 bindings.x.options.host: environment variable HOST is not set",
            "zilla.yaml:7:13 bindings.x.options.host: environment variable ZONE is not set",
            "zilla.yaml:8:13 bindings.x.options.port: environment variable PORT is not set");
    }

    @Test
    void shouldValidateAVariableByTheTypeOfItsValue()
    {
        final ConfigException ex = assertThrows(ConfigException.class,
            () -> ConfigReaderTest.reader(Map.of("HOST", "1234", "PORT", "eighty")).read("zilla.yaml", """
                name: example
                bindings:
                  x:
                    type: tcp
                    kind: server
                    options:
                      host: ${{env.HOST}}
                      port: ${{env.PORT}}
                """, 1));

        assertEquals(List.of(
            "zilla.yaml:7:13 bindings.x.options.host: must be a string, not an integer",
            "zilla.yaml:8:13 bindings.x.options.port: must be a port range such as \"8000-8010\""), strings(ex.errors()));
    }

    @Test
    void shouldReportEveryErrorInFileOrder()
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> reader().read("zilla.yaml", """
            name: example
            bindings:
              south:
                type: echo
                kind: server
                exit: nowhere
              north:
                type: tcp
                options:
                  port: -1
                routes:
                  - exit: south
                    when:
                      - cidr: 0.0.0.0/0
                        port: true
              east:
                type: udp
                kind: server
            extra: true
            """, 1));

        assertEquals("""
            6 errors in configuration:
              zilla.yaml:6:5 bindings.south.exit: an echo server has no exits: it ends the streams it takes
              zilla.yaml:7:3 bindings.north: missing required property 'kind'
              zilla.yaml:10:13 bindings.north.options.port: must be at least 0
              zilla.yaml:15:19 bindings.north.routes[0].when[0].port: must be an integer, a range "8000-8010" or a list
              zilla.yaml:17:11 bindings.east.type: unknown binding type 'udp' (installed: echo, tcp)
              zilla.yaml:19:1 unknown property 'extra'""", ex.getMessage());
    }

    @Test
    void shouldReportAYamlSyntaxErrorWhereItIs()
    {
        assertErrors("""
            name: example
            bindings: x: y
            """,
            "zilla.yaml:2:12 mapping values are not allowed here");
    }

    @Test
    void shouldReportAnUnclosedFlowSequenceAtTheEndWithWhereItOpened()
    {
        assertErrors("""
            name: example
            bindings:
              x:
                type: tcp
                kind: server
                options:
                  port: [8080, 8081
            """,
            "zilla.yaml:8:1 expected ',' or ']', but got <stream end> (while parsing a flow sequence at 7:13)");
    }

    @Test
    void shouldReportAnEmptyFileAndASecondDocument()
    {
        assertErrors("", "zilla.yaml:1:1 the file is empty");
        assertErrors("---\n# nothing yet\n", "zilla.yaml:1:1 the file is empty");
        assertErrors("""
            name: one
            ---
            name: two
            """,
            "zilla.yaml:3:1 only one YAML document is allowed");
    }

    @Test
    void shouldReportADocumentThatIsNotAMapping()
    {
        assertErrors("""
            - name: example
            """,
            "zilla.yaml:1:1 must be an object, not an array");
    }

    // the engine's stream.* and engine.* metrics: the test bindings declare none of their own
    private static final String INSTALLED = String.join(", ", TelemetryConfig.METRICS) + ", "
        + String.join(", ", EngineMetrics.ENGINE.stream().map(Metric::name).toList());

    private static void assertErrors(String text, String... expected)
    {
        assertErrors(reader(), text, expected);
    }

    private static void assertErrors(ConfigReader reader, String text, String... expected)
    {
        final ConfigException ex = assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", text, 1));

        assertEquals(List.of(expected), strings(ex.errors()));
    }

    private static List<String> strings(List<ConfigError> errors)
    {
        return errors.stream().map(ConfigError::toString).toList();
    }

    private static ConfigReader reader()
    {
        return ConfigReaderTest.reader(Map.of());
    }

    private static ConfigReader mappingReader()
    {
        return new ConfigReader(TestBindings.installed(new TestBindings.Mapping(), new TestBindings.Echo()), name -> null);
    }
}
