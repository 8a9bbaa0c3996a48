/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.exporters.otlp;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import java.util.stream.Collectors;

import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.metrics.v1.AggregationTemporality;
import io.opentelemetry.proto.metrics.v1.HistogramDataPoint;
import io.opentelemetry.proto.metrics.v1.Metric;
import io.opentelemetry.proto.metrics.v1.NumberDataPoint;
import io.opentelemetry.proto.metrics.v1.ResourceMetrics;
import io.opentelemetry.proto.metrics.v1.ScopeMetrics;
import io.zilla.engine.Engine;
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
 * configured headers.
 */
class OtlpExporterTest
{
    private static final int REQUESTS = 4;
    private static final String BODY = "Hello, otlp";
    private static final String HTTP = "north_http_server";

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

        final HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/"))
            .POST(HttpRequest.BodyPublishers.ofString(BODY))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode());

        final List<OtlpReceiver.Received> received = receiver.await(now ->
        {
            final Map<String, Metric> metrics = latest(now);
            return metrics.containsKey("http.duration") && histogram(metrics.get("http.duration"), HTTP).getCount() == 1;
        }, "1 request in http.duration");

        assertEquals(Set.of("http.duration"), latest(received).keySet());
        assertTrue(received.stream().allMatch(request -> request.path().equals("/otlp/v1/metrics")), received::toString);
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

    private static Set<String> bindings(Metric metric)
    {
        return metric == null ? Set.of() : metric.getSum().getDataPointsList().stream()
            .map(point -> attributes(point.getAttributesList()).get("binding"))
            .collect(Collectors.toSet());
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
