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
 * What a produce costs the workers in heap, per request, once warm: PUTs over one HTTP/1.1 keep-alive connection
 * through the whole graph (http server, http-kafka, the kafka cache_client relay, the kind client). Not zero yet (an
 * exchange, the copies of its head, the record's extension builders: docs/bindings/http-kafka.md, Limits): this bounds
 * it, so that it does not grow unseen, and prints it.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaAllocationTest
{
    private static final int WARMUP = 3_000;
    private static final int REQUESTS = 1_000;
    private static final long BOUND_PER_REQUEST = 8 * 1024;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpKafkaProxyTest.class);

    @Test
    void shouldAllocateLittlePerProducedRequestOnceWarm(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("BODY", "100000").env("KAFKA_BOOTSTRAP", kafka.bootstrapServers())
            .env("TOPIC", topics.create(4)).env("REQUESTS", topics.create()).env("RESPONSES", topics.create())
            .env("WAIT", "10000").start("proxy.yaml");
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(30)).build();
        final HttpRequest put = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/items/a"))
            .header("content-type", "application/json").PUT(HttpRequest.BodyPublishers.ofString("{\"v\":1}")).build();
        ThreadStats.enable();
        for (int i = 0; i < WARMUP; i++)
        {
            assertEquals(204, client.send(put, HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        final ThreadStats before = ThreadStats.of("zilla-worker-");
        for (int i = 0; i < REQUESTS; i++)
        {
            assertEquals(204, client.send(put, HttpResponse.BodyHandlers.discarding()).statusCode());
        }
        final long perRequest = ThreadStats.of("zilla-worker-").minus(before).allocated() / REQUESTS;
        System.out.printf("http-kafka produce: %d bytes allocated on the workers per request%n", perRequest);
        assertTrue(perRequest < BOUND_PER_REQUEST, perRequest + " bytes per request");
    }
}
