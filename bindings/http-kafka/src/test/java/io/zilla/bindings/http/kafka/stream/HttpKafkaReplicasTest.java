/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static io.zilla.bindings.http.kafka.stream.HttpKafkaTesting.records;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two replicas (engines) in front of one Kafka: a request retried on the other replica is not produced again. */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaReplicasTest
{
    @RegisterExtension
    final EngineExtension one = new EngineExtension().anchor(HttpKafkaProxyTest.class);

    @RegisterExtension
    final EngineExtension two = new EngineExtension().anchor(HttpKafkaProxyTest.class);

    @Test
    void shouldNotProduceARetryOnAnotherReplicaAgain(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String items = topics.create(2);
        final String requests = topics.create(2);
        final String responses = topics.create(2);
        final String first = start(one, kafka, items, requests, responses);
        final String second = start(two, kafka, items, requests, responses);
        final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();
        try (HttpKafkaTesting.Responder responder = new HttpKafkaTesting.Responder(kafka, requests))
        {
            final HttpResponse<String> answer = client.send(post(first, "once"), HttpResponse.BodyHandlers.ofString());
            assertEquals(201, answer.statusCode());
            assertEquals("ONCE", answer.body());
            records(kafka, requests, 1);
            for (int i = 0; i < 3; i++)
            {
                final HttpResponse<String> retry = client.send(post(second, "once"), HttpResponse.BodyHandlers.ofString());
                assertEquals(201, retry.statusCode());
                assertEquals("ONCE", retry.body());
            }
        }
        assertEquals(1, records(kafka, requests, 1).size(), "one record for the request and its retries");
    }

    private static HttpRequest post(String base, String body)
    {
        return HttpRequest.newBuilder(URI.create(base + "/requests/r1")).header("idempotency-key", "replicated")
            .timeout(Duration.ofSeconds(30)).POST(HttpRequest.BodyPublishers.ofString(body)).build();
    }

    private static String start(EngineExtension engine, EmbeddedKafka kafka, String items, String requests,
        String responses)
    {
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("BODY", "100000").env("KAFKA_BOOTSTRAP", kafka.bootstrapServers())
            .env("TOPIC", items).env("REQUESTS", requests).env("RESPONSES", responses).env("WAIT", "10000")
            .start("proxy.yaml");
        return "http://127.0.0.1:" + port;
    }
}
