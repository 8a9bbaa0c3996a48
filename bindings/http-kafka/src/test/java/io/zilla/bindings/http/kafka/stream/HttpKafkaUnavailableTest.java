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
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Kafka out of reach (a port where nothing listens): every request answered 503 with Retry-After after limits.wait. */
class HttpKafkaUnavailableTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpKafkaProxyTest.class);

    @Test
    void shouldAnswerEveryRequest503WithRetryAfterWhenKafkaIsOutOfReach() throws Exception
    {
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("BODY", "100000")
            .env("KAFKA_BOOTSTRAP", "127.0.0.1:" + FreePorts.next())
            .env("TOPIC", "items").env("REQUESTS", "requests").env("RESPONSES", "responses").env("WAIT", "2000")
            .start("proxy.yaml");
        final String base = "http://127.0.0.1:" + port;
        final HttpClient client = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
        final List<HttpRequest> requests = List.of(
            HttpRequest.newBuilder(URI.create(base + "/items/a")).PUT(HttpRequest.BodyPublishers.ofString("v")).build(),
            HttpRequest.newBuilder(URI.create(base + "/items/a")).build(),
            HttpRequest.newBuilder(URI.create(base + "/items")).build(),
            HttpRequest.newBuilder(URI.create(base + "/requests/r")).POST(HttpRequest.BodyPublishers.ofString("q")).build(),
            HttpRequest.newBuilder(URI.create(base + "/items/b")).DELETE().build());
        final long start = System.nanoTime();
        final List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (HttpRequest request : requests)
        {
            responses.add(client.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> future : responses)
        {
            final HttpResponse<String> response = future.get();
            assertEquals(503, response.statusCode(), response.request().method() + " " + response.request().uri());
            assertEquals("1", response.headers().firstValue("retry-after").orElse(null));
        }
        final long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis >= 1_900 && millis < 10_000, "answered after the wait limit: " + millis + " ms");
    }
}
