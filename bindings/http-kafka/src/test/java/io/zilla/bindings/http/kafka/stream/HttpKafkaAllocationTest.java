/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.engine.test.ThreadStats;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a produce costs the workers in heap, per request, once warm: PUTs with a content-length (a streamed body, as
 * REST clients send) over one HTTP/1.1 keep-alive connection, and over one h2c connection, through the whole graph
 * (http server, http-kafka, the kafka cache_client relay, the kind client). Nothing: the request is read in place into
 * an exchange used again (docs/bindings/http-kafka.md, "Memory"). The bound is under the smallest object (16 bytes) per
 * request, so one object made per request fails it, while a map's rare growth over the run does not.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaAllocationTest
{
    private static final int WARMUP = 3_000;
    private static final int REQUESTS = 2_000;
    private static final long BOUND_PER_REQUEST = 16;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpKafkaProxyTest.class);

    @Test
    void shouldAllocateNothingPerProducedRequestOverHttp11(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        assertNothingAllocatedPerRequest(kafka, topics, HttpClient.Version.HTTP_1_1);
    }

    @Test
    void shouldAllocateNothingPerProducedRequestOverH2c(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        assertNothingAllocatedPerRequest(kafka, topics, HttpClient.Version.HTTP_2);
    }

    private void assertNothingAllocatedPerRequest(EmbeddedKafka kafka, KafkaTopics topics, HttpClient.Version version)
        throws Exception
    {
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("BODY", "100000").env("KAFKA_BOOTSTRAP", kafka.bootstrapServers())
            .env("TOPIC", topics.create(4)).env("REQUESTS", topics.create()).env("RESPONSES", topics.create())
            .env("WAIT", "10000").start("proxy.yaml");
        final HttpClient client = HttpClient.newBuilder().version(version).connectTimeout(Duration.ofSeconds(30)).build();
        final HttpRequest put = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/items/a"))
            .header("content-type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"v\":1}")).build();
        // a GET first: the JDK client upgrades to h2c on a request without a body
        client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/items/none")).build(),
            HttpResponse.BodyHandlers.discarding());
        ThreadStats.enable();
        for (int i = 0; i < WARMUP; i++)
        {
            final HttpResponse<Void> response = client.send(put, HttpResponse.BodyHandlers.discarding());
            assertEquals(204, response.statusCode());
            assertEquals(version, response.version());
        }
        final ThreadStats before = ThreadStats.of("zilla-worker-");
        for (int i = 0; i < REQUESTS; i++)
        {
            assertEquals(204, client.send(put, HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        final long allocated = ThreadStats.of("zilla-worker-").minus(before).allocated();
        System.out.printf("http-kafka produce over %s: %d bytes allocated on the workers in %d requests%n", version,
            allocated, REQUESTS);
        assertTrue(allocated < BOUND_PER_REQUEST * REQUESTS, allocated + " bytes in " + REQUESTS + " requests");
    }
}
