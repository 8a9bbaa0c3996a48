/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.logs.v1.LogRecord;
import io.opentelemetry.proto.logs.v1.ResourceLogs;
import io.opentelemetry.proto.logs.v1.ScopeLogs;
import io.opentelemetry.proto.logs.v1.SeverityNumber;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.zilla.engine.Engine;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.metrics.Buckets;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * tcp -> http (http.* and stream.*) -> echo, pushed every second to an OTLP receiver in the test: the metrics arrive
 * with their types, units, zilla's histogram bounds and exact counts, the resource and data point attributes, and the
 * configured headers. A tcp server whose one route takes no connection from 127.0.0.1 makes the events: each
 * refused connection is a {@code tcp.connection.refused}, which arrives as a log record, as does a reload's
 * {@code engine.config.reloaded}.
 */
class OtlpExporterTest
{
    private static final int REQUESTS = 4;
    private static final String BODY = "Hello, otlp";
    private static final String HTTP = "north_http_server";
    private static final String REFUSED = "tcp.connection.refused";
    private static final String RELOADED = "engine.config.reloaded";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final HttpClient client = HttpClient.newBuilder()
        .version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(Duration.ofSeconds(5))
        .build();
    private OtlpReceiver receiver;

    @TempDir
    Path temp;

    @BeforeEach
    void startReceiver() throws Exception
    {
        receiver = new OtlpReceiver();
    }

    @AfterEach
    void stopReceiver()
    {
        // the engine first: its stop pushes the final totals, which the receiver takes
        if (engine.engine() != null)
        {
            engine.engine().close();
        }
        receiver.close();
    }

    @Test
    void shouldPushCountersGaugesAndHistograms() throws Exception
    {
        final int port = FreePorts.next();
        final Engine started = engine.startText("zilla.yaml", yaml(port, "", "/v1/metrics"));
        assertEquals(List.of("otlp_exporter metrics every 1 s to " + receiver.location() + "/v1/metrics"),
            started.exporterDescriptions());

        for (int i = 0; i < REQUESTS; i++)
        {
            final HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                    URI.create("http://localhost:" + port + "/items"))
                .POST(HttpRequest.BodyPublishers.ofString(BODY))
                .build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode());
            assertEquals(BODY, response.body());
        }

        final List<OtlpReceiver.Received> received = receiver.await(now ->
        {
            final Map<String, Metric> metrics = latest(now);
            return metrics.containsKey("http.duration") && histogram(metrics.get("http.duration"), HTTP).getCount() == REQUESTS
                && metrics.containsKey("stream.opens.sent") && opensSent(metrics) == REQUESTS;
        }, REQUESTS + " requests in http.duration and stream.opens.sent");
        final Map<String, Metric> metrics = latest(received);

        assertEquals(Set.of("http.active.requests", "http.duration", "http.request.size", "http.response.size",
            "stream.opens.sent", "stream.opens.received", "stream.closes.sent", "stream.closes.received",
            "stream.errors.sent", "stream.errors.received", "stream.data.sent", "stream.data.received",
            "stream.active.sent", "stream.active.received", "engine.workers"), metrics.keySet());
        // the engine's own: summed over workers, no binding attribute
        final NumberDataPoint workers = metrics.get("engine.workers").getGauge().getDataPoints(0);
        assertTrue(workers.getAsDouble() >= 1.0, workers::toString);
        assertTrue(workers.getAttributesList().stream().noneMatch(attribute -> attribute.getKey().equals("binding")),
            workers::toString);

        // counters: monotonic cumulative sums, bytes in By
        final Metric opens = metrics.get("stream.opens.sent");
        assertTrue(opens.hasSum(), opens::toString);
        assertTrue(opens.getSum().getIsMonotonic(), opens::toString);
        assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE, opens.getSum().getAggregationTemporality());
        assertEquals("By", metrics.get("stream.data.received").getUnit());
        assertTrue(number(metrics.get("stream.data.received"), HTTP) > REQUESTS * BODY.length(),
            metrics.get("stream.data.received")::toString);
        // gauges: nothing in flight any more
        assertTrue(metrics.get("http.active.requests").hasGauge());
        assertEquals(0.0, number(metrics.get("http.active.requests"), HTTP));
        assertTrue(metrics.get("stream.active.sent").hasGauge());

        // histograms: zilla's bounds (seconds, bytes) and exact counts, cumulative
        final Metric duration = metrics.get("http.duration");
        assertEquals("s", duration.getUnit());
        assertEquals(AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE,
            duration.getHistogram().getAggregationTemporality());
        final HistogramDataPoint durations = histogram(duration, HTTP);
        assertEquals(bounds(Buckets.DURATIONS, 1e9), durations.getExplicitBoundsList());
        assertEquals(Buckets.DURATIONS.count(), durations.getBucketCountsCount());
        assertEquals(REQUESTS, durations.getBucketCountsList().stream().mapToLong(Long::longValue).sum());
        assertTrue(durations.getSum() > 0.0 && durations.getSum() < 30.0 * REQUESTS, durations::toString);
        assertTrue(durations.getStartTimeUnixNano() > 0 && durations.getStartTimeUnixNano() < durations.getTimeUnixNano());

        final Metric size = metrics.get("http.request.size");
        assertEquals("By", size.getUnit());
        final HistogramDataPoint sizes = histogram(size, HTTP);
        assertEquals(bounds(Buckets.SIZES, 1.0), sizes.getExplicitBoundsList());
        assertEquals(REQUESTS, sizes.getCount());
        assertEquals((double) REQUESTS * BODY.length(), sizes.getSum());
        // every body is under 64 bytes: all in the first bucket
        assertEquals(REQUESTS, sizes.getBucketCounts(0));

        // data point attributes: namespace, binding, the namespace's telemetry.attributes
        assertEquals(Map.of("namespace", "example", "binding", HTTP, "deployment.environment", "test"),
            attributes(durations.getAttributesList()));
        final NumberDataPoint tcpOpens = opens.getSum().getDataPointsList().stream()
            .filter(point -> attributes(point.getAttributesList()).get("binding").equals("north_tcp_server"))
            .findFirst()
            .orElseThrow();
        assertEquals(Map.of("namespace", "example", "binding", "north_tcp_server", "deployment.environment", "test"),
            attributes(tcpOpens.getAttributesList()));
        assertFalse(opens.getSum().getDataPointsList().stream()
            .anyMatch(point -> attributes(point.getAttributesList()).get("binding").equals("north_echo_server")));

        // the resource: service.name is the namespace's name, with the namespace's attributes; one resource for all
        final Set<Map<String, String>> resources = received.stream()
            .flatMap(request -> request.request().getResourceMetricsList().stream())
            .map(resource -> attributes(resource.getResource().getAttributesList()))
            .collect(Collectors.toSet());
        assertEquals(1, resources.size(), resources::toString);
        final Map<String, String> resource = resources.iterator().next();
        assertEquals("example", resource.get("service.name"), resource::toString);
        assertEquals("test", resource.get("deployment.environment"), resource::toString);

        // OTLP/HTTP with protobuf bodies, with the configured header
        for (OtlpReceiver.Received request : received)
        {
            assertEquals("POST", request.method());
            assertEquals("/v1/metrics", request.path());
            assertEquals("application/x-protobuf", request.header("Content-Type"));
            assertEquals("Bearer test-token", request.header("Authorization"));
        }
    }

    @Test
    void shouldPushOnlyHistogramsToTheOverriddenPath() throws Exception
    {
        final int port = FreePorts.next();
        engine.startText("zilla.yaml", yaml(port, "http.duration", "/otlp/v1/metrics"));

        final List<OtlpReceiver.Received> received = postOnceAndAwaitItsDuration(port);

        assertEquals(Set.of("http.duration"), latest(received).keySet());
        assertTrue(received.stream().allMatch(request -> request.path().equals("/otlp/v1/metrics")), received::toString);
    }

    @Test
    void shouldPushTheAttributesOfTheBindingAsDataPointAttributes() throws Exception
    {
        final int port = FreePorts.next();
        final String yaml = yaml(port, "http.duration", "/v1/metrics").replace(
            "        - http.duration\n    exit: north_echo_server",
            "        - http.duration\n      attributes:\n        method: ${http.request.method}\n"
                + "        status: ${http.response.status}\n    exit: north_echo_server");
        assertTrue(yaml.contains("status: ${http.response.status}"), yaml);
        engine.startText("zilla.yaml", yaml);

        final List<OtlpReceiver.Received> received = postOnceAndAwaitItsDuration(port);

        // one data point, of the label set of the one request: none without the attributes
        final List<HistogramDataPoint> points = latest(received).get("http.duration").getHistogram().getDataPointsList();
        assertEquals(1, points.size(), points::toString);
        final Map<String, String> attributes = attributes(points.get(0).getAttributesList());
        assertEquals("POST", attributes.get("method"), attributes::toString);
        assertEquals("200", attributes.get("status"), attributes::toString);
        assertEquals("north_http_server", attributes.get("binding"), attributes::toString);
    }

    @Test
    void shouldPushTheFinalTotalsWhenItStops() throws Exception
    {
        final int port = FreePorts.next();
        // an interval longer than the test: only the push at the stop can carry the request
        final Engine started = engine.startText("zilla.yaml",
            yaml(port, "", "/v1/metrics").replace("interval: 1", "interval: 3600"));

        final HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/"))
            .POST(HttpRequest.BodyPublishers.ofString(BODY))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());
        started.close();

        final Map<String, Metric> metrics = latest(receiver.received());
        assertEquals(1, histogram(metrics.get("http.duration"), HTTP).getCount(), metrics::toString);
        assertEquals(1.0, opensSent(metrics), metrics::toString);
    }

    @Test
    void shouldDropTheDataPointsOfABindingThatAReloadRemoves() throws Exception
    {
        final Path file = temp.resolve("zilla.yaml");
        Files.writeString(file, yaml(FreePorts.next(), "", "/v1/metrics"));
        engine.startWatching(file);
        receiver.await(now -> bindings(latest(now).get("stream.opens.sent")).contains("north_tcp_server"),
            "north_tcp_server's stream.opens.sent");

        // north_tcp_server becomes south_tcp_server, on another port (the old listener closes as the new one binds)
        Files.writeString(file, yaml(FreePorts.next(), "", "/v1/metrics").replace("north_tcp_server:", "south_tcp_server:"));
        final List<OtlpReceiver.Received> received = receiver.await(now ->
            bindings(latest(now).get("stream.opens.sent")).contains("south_tcp_server"), "south_tcp_server's stream.opens.sent");

        assertEquals(Set.of("south_tcp_server", HTTP), bindings(latest(received).get("stream.opens.sent")));
    }

    @Test
    void shouldPushEventsAsLogRecords() throws Exception
    {
        final int port = FreePorts.next();
        final Path file = temp.resolve("zilla.yaml");
        Files.writeString(file, refusingYaml(port, "[metrics, logs]", ""));
        final Engine started = engine.startWatching(file);
        assertEquals(List.of("otlp_exporter metrics, logs every 1 s to " + receiver.location() + "/v1/metrics, "
            + receiver.location() + "/v1/logs"), started.exporterDescriptions());

        refuse(port);
        // the same bindings: nothing restarts, the engine says it reloaded
        Files.writeString(file, refusingYaml(port, "[metrics, logs]", "") + "# reloaded\n");
        final List<OtlpReceiver.ReceivedLogs> received = receiver.awaitLogs(now ->
            records(now).containsKey(REFUSED) && records(now).containsKey(RELOADED), REFUSED + " and " + RELOADED);
        final Map<String, LogRecord> records = records(received);

        // a refused connection: the event's time, detail and trace, WARN
        final EngineEvent event = event(REFUSED);
        final LogRecord refused = records.get(REFUSED);
        assertEquals(TimeUnit.MILLISECONDS.toNanos(event.timestamp()), refused.getTimeUnixNano());
        assertTrue(refused.getObservedTimeUnixNano() >= refused.getTimeUnixNano(), refused::toString);
        assertEquals(event.detail(), refused.getBody().getStringValue());
        assertTrue(refused.getBody().getStringValue().contains("no route"), refused::toString);
        assertEquals(SeverityNumber.SEVERITY_NUMBER_WARN, refused.getSeverityNumber());
        assertEquals("WARN", refused.getSeverityText());
        assertEquals(REFUSED, refused.getEventName());
        assertTrue(event.traceId() != 0L, event::toString);
        assertEquals(Map.of("namespace", "example", "binding", "north_tcp_server", "event", REFUSED,
            "zilla.trace.id", "0x" + Long.toHexString(event.traceId())), attributes(refused.getAttributesList()));
        // zilla's trace id is not an OTLP trace id
        assertTrue(refused.getTraceId().isEmpty(), refused::toString);

        // the reload: the engine's, no trace, INFO
        final LogRecord reloaded = records.get(RELOADED);
        assertEquals(SeverityNumber.SEVERITY_NUMBER_INFO, reloaded.getSeverityNumber());
        assertEquals("INFO", reloaded.getSeverityText());
        assertEquals(event(RELOADED).detail(), reloaded.getBody().getStringValue());
        assertTrue(reloaded.getBody().getStringValue().endsWith(": 2 bindings"), reloaded::toString);
        assertEquals(Map.of("namespace", "example", "binding", "engine", "event", RELOADED),
            attributes(reloaded.getAttributesList()));

        // the metrics' resource: service.name is the namespace's name, with the namespace's attributes
        final List<OtlpReceiver.Received> metrics = receiver.await(now -> !now.isEmpty(), "a metrics push");
        final Set<Map<String, String>> resources = received.stream()
            .flatMap(request -> request.request().getResourceLogsList().stream())
            .map(resource -> attributes(resource.getResource().getAttributesList()))
            .collect(Collectors.toSet());
        assertEquals(1, resources.size(), resources::toString);
        final Map<String, String> resource = resources.iterator().next();
        assertEquals("example", resource.get("service.name"), resource::toString);
        assertEquals("test", resource.get("deployment.environment"), resource::toString);
        assertEquals(attributes(metrics.get(0).request().getResourceMetrics(0).getResource().getAttributesList()),
            resource);

        // OTLP/HTTP with protobuf bodies, with the configured header
        for (OtlpReceiver.ReceivedLogs request : received)
        {
            assertEquals("/v1/logs", request.path());
            assertEquals("application/x-protobuf", request.header("Content-Type"));
            assertEquals("Bearer test-token", request.header("Authorization"));
        }
    }

    @Test
    void shouldKeepTheRecordsOfAFailedPushForTheNext() throws Exception
    {
        final int port = FreePorts.next();
        receiver.answerLogs(503);
        final Engine started = engine.startText("zilla.yaml", refusingYaml(port, "[logs]", "/otlp/v1/logs"));
        assertEquals(List.of("otlp_exporter logs every 1 s to " + receiver.location() + "/otlp/v1/logs"),
            started.exporterDescriptions());

        refuse(port);
        final List<OtlpReceiver.ReceivedLogs> received = receiver.awaitLogs(now -> now.size() >= 2, "a second logs push");

        // the collector could not take it: the next push sends it again, and it is taken
        assertEquals(503, received.get(0).status());
        assertEquals(200, received.get(1).status());
        assertEquals(List.of(REFUSED), names(received.get(0)));
        assertEquals(logRecords(received.get(0)), logRecords(received.get(1)));
        assertEquals("/otlp/v1/logs", received.get(1).path());
        assertEquals("Bearer test-token", received.get(1).header("Authorization"));

        // then nothing is queued: the push at the stop sends nothing, and no metrics are pushed at all
        started.close();
        assertEquals(2, receiver.logs().size(), receiver.logs()::toString);
        assertEquals(List.of(), receiver.received());
    }

    @Test
    void shouldPushNoLogsWithMetricsAlone() throws Exception
    {
        final int port = FreePorts.next();
        final Engine started = engine.startText("zilla.yaml", refusingYaml(port, "[metrics]", ""));

        refuse(port);
        event(REFUSED);
        receiver.await(now -> !now.isEmpty(), "a metrics push");
        // the stop hands the exporter every event left, and pushes the last metrics
        started.close();

        assertFalse(receiver.received().isEmpty());
        assertEquals(List.of(), receiver.logs());
    }

    private static Set<String> bindings(Metric metric)
    {
        return metric == null ? Set.of() : metric.getSum().getDataPointsList().stream()
            .map(point -> attributes(point.getAttributesList()).get("binding"))
            .collect(Collectors.toSet());
    }

    /** One POST through the echo, then the pushes until one carries its http.duration. */
    private List<OtlpReceiver.Received> postOnceAndAwaitItsDuration(int port) throws Exception
    {
        final HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/"))
            .POST(HttpRequest.BodyPublishers.ofString(BODY))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());

        final List<OtlpReceiver.Received> received = receiver.await(now ->
        {
            final Map<String, Metric> metrics = latest(now);
            return metrics.containsKey("http.duration") && histogram(metrics.get("http.duration"), HTTP).getCount() == 1;
        }, "1 request in http.duration");
        return received;
    }

    private String yaml(int port, String metrics, String path)
    {
        final String selected = metrics.isEmpty() ? "- http.*\n    - stream.*" : "- " + metrics;
        // the engine's own are the namespace's to select, not a binding's
        final String namespaceSelected = metrics.isEmpty() ? selected + "\n    - engine.workers" : selected;
        // the tcp binding counts its connections, unless the namespace records no stream.* at all
        final String tcpTelemetry = metrics.isEmpty() ? "    telemetry:\n      metrics:\n        - stream.opens.*" : "";
        return """
            name: example
            telemetry:
              attributes:
                deployment.environment: test
              metrics:
                %s
              exporters:
                otlp_exporter:
                  type: otlp
                  options:
                    interval: 1
                    signals: [metrics]
                    endpoint:
                      protocol: http
                      location: %s
                      overrides:
                        metrics: %s
                      headers:
                        authorization: Bearer test-token
            bindings:
              north_tcp_server:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %d
            %s
                exit: north_http_server
              north_http_server:
                type: http
                kind: server
                telemetry:
                  metrics:
                    %s
                exit: north_echo_server
              north_echo_server:
                type: echo
                kind: server
            """.formatted(namespaceSelected, receiver.location(), path, port, tcpTelemetry,
                selected.replace("\n    ", "\n        "));
    }

    /** A tcp server that takes connections from 10.0.0.0/8 only: a test's connection is refused, an event. */
    private String refusingYaml(int port, String signals, String logsPath)
    {
        final String overrides = logsPath.isEmpty() ? "" : "\n          overrides:\n            logs: " + logsPath;
        return """
            name: example
            telemetry:
              attributes:
                deployment.environment: test
              metrics:
                - stream.opens.*
              exporters:
                otlp_exporter:
                  type: otlp
                  options:
                    interval: 1
                    signals: %s
                    endpoint:
                      location: %s%s
                      headers:
                        authorization: Bearer test-token
            bindings:
              north_tcp_server:
                type: tcp
                kind: server
                options:
                  host: 127.0.0.1
                  port: %d
                telemetry:
                  metrics:
                    - stream.opens.*
                routes:
                  - when:
                      - cidr: 10.0.0.0/8
                    exit: north_echo_server
              north_echo_server:
                type: echo
                kind: server
            """.formatted(signals, receiver.location(), overrides, port);
    }

    /** Connects, and is closed on at once. */
    private static void refuse(int port) throws IOException
    {
        try (Socket socket = new Socket("127.0.0.1", port))
        {
            socket.setSoTimeout(10_000);
            assertEquals(-1, socket.getInputStream().read());
        }
        catch (SocketException ex)
        {
            // reset rather than closed: refused all the same
        }
    }

    /** The first event of that name the engine exported, waiting for it. */
    private EngineEvent event(String name) throws InterruptedException
    {
        final long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline)
        {
            for (EngineEvent event : engine.events())
            {
                if (event.event().equals(name))
                {
                    return event;
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no " + name + " in " + engine.events());
    }

    /** Each record taken (answered 200), by its event's name: the last of each. */
    private static Map<String, LogRecord> records(List<OtlpReceiver.ReceivedLogs> received)
    {
        final Map<String, LogRecord> records = new TreeMap<>();
        received.stream()
            .filter(request -> request.status() == 200)
            .flatMap(request -> logRecords(request).stream())
            .forEach(record -> records.put(record.getEventName(), record));
        return records;
    }

    private static List<LogRecord> logRecords(OtlpReceiver.ReceivedLogs request)
    {
        final List<LogRecord> records = new ArrayList<>();
        for (ResourceLogs resource : request.request().getResourceLogsList())
        {
            for (ScopeLogs scope : resource.getScopeLogsList())
            {
                records.addAll(scope.getLogRecordsList());
            }
        }
        return records;
    }

    private static List<String> names(OtlpReceiver.ReceivedLogs request)
    {
        return logRecords(request).stream().map(LogRecord::getEventName).toList();
    }

    /**
     * The streams the http binding opened to echo, one per request: it also opens a reply to tcp per connection, which
     * the tcp binding counts as its own opens (JDK HttpClient reuses its connections).
     */
    private static double opensSent(Map<String, Metric> metrics)
    {
        final Metric opens = metrics.get("stream.opens.sent");
        return number(opens, HTTP) - number(opens, "north_tcp_server");
    }

    /** Each metric as the last request that carried it has it. */
    private static Map<String, Metric> latest(List<OtlpReceiver.Received> received)
    {
        final Map<String, Metric> metrics = new TreeMap<>();
        for (OtlpReceiver.Received request : received)
        {
            for (ResourceMetrics resource : request.request().getResourceMetricsList())
            {
                for (ScopeMetrics scope : resource.getScopeMetricsList())
                {
                    scope.getMetricsList().forEach(metric -> metrics.put(metric.getName(), metric));
                }
            }
        }
        return metrics;
    }

    private static double number(Metric metric, String binding)
    {
        final List<NumberDataPoint> points = metric.hasSum() ? metric.getSum().getDataPointsList()
            : metric.getGauge().getDataPointsList();
        return points.stream()
            .filter(point -> binding.equals(attributes(point.getAttributesList()).get("binding")))
            .mapToDouble(NumberDataPoint::getAsDouble)
            .findFirst()
            .orElse(Double.NaN);
    }

    private static HistogramDataPoint histogram(Metric metric, String binding)
    {
        return metric.getHistogram().getDataPointsList().stream()
            .filter(point -> binding.equals(attributes(point.getAttributesList()).get("binding")))
            .findFirst()
            .orElse(HistogramDataPoint.getDefaultInstance());
    }

    private static Map<String, String> attributes(List<KeyValue> attributes)
    {
        final Map<String, String> map = new LinkedHashMap<>();
        attributes.forEach(attribute -> map.put(attribute.getKey(), attribute.getValue().getStringValue()));
        return map;
    }

    private static List<Double> bounds(Buckets buckets, double scale)
    {
        final List<Double> bounds = new ArrayList<>();
        for (int i = 0; i < buckets.count() - 1; i++)
        {
            bounds.add(buckets.bound(i) / scale);
        }
        return bounds;
    }
}
