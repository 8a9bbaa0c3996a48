/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * examples/http.kafka.sync as its README uses it, the service behind it written with kafka-clients: a PUT waits for its
 * correlated reply; retries of one request with one idempotency key produce one request record and get its reply; the
 * same key with another body is another request.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaSyncExampleTest
{
    private static final String ID = "5cf7a1d5-3772-49ef-86e7-ba6f2c7d7d07";
    private static final int RETRIES = 100;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @Test
    void shouldAnswerWithTheCorrelatedReply(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String requests = topics.create(1);
        final String responses = topics.create(1);
        final HttpKafkaExample example = new HttpKafkaExample("http.kafka.sync", kafka)
            .topic("items-requests", requests).topic("items-responses", responses);
        example.start(engine);
        final String item = example.url("/items/" + ID);

        // the request waits for its reply: none comes before the service runs
        final CompletableFuture<Curl.Response> waiting = Curl.start("-X", "PUT", item, "-H", "Idempotency-Key: 1",
            "-H", "Content-Type: application/json", "-d", "{\"greeting\":\"Hello, world\"}");
        Thread.sleep(1_000);
        assertFalse(waiting.isDone(), "answered before any reply");

        try (Responder service = new Responder(kafka.bootstrapServers(), requests, value -> value.replace("world", "back"))
            .start())
        {
            final Curl.Response reply = waiting.get(30, TimeUnit.SECONDS);
            assertEquals(200, reply.status(), reply.toString());
            assertEquals("{\"greeting\":\"Hello, back\"}", reply.body(), reply.toString());
            assertEquals("application/json", reply.header("content-type"), reply.toString());

            final ConsumerRecord<String, String> request = service.requests().get(0);
            assertEquals(ID, request.key());
            assertEquals(responses, Responder.header(request, Responder.REPLY_TO));
            assertNotNull(Responder.header(request, Responder.CORRELATION_ID), request.toString());
            assertEquals("PUT", Responder.header(request, ":method"), request.toString());
        }
    }

    @Test
    void shouldProduceARetriedRequestOnce(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String requests = topics.create(1);
        final String responses = topics.create(1);
        final HttpKafkaExample example = new HttpKafkaExample("http.kafka.sync", kafka)
            .topic("items-requests", requests).topic("items-responses", responses);
        example.start(engine);
        final URI item = URI.create(example.url("/items/" + ID));
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        try (Responder service = new Responder(kafka.bootstrapServers(), requests, value -> "{\"echo\":" + value + "}")
            .start())
        {
            final String body = "{\"n\":1}";
            for (int retry = 0; retry < RETRIES; retry++)
            {
                final HttpResponse<String> reply = client.send(put(item, "7", body), HttpResponse.BodyHandlers.ofString());
                assertEquals(200, reply.statusCode(), "retry " + retry + ": " + reply.body());
                assertEquals("{\"echo\":" + body + "}", reply.body(), "retry " + retry);
            }
            final List<ConsumerRecord<String, String>> once = service.requests();
            assertEquals(1, once.size(), once.toString());

            // the same key with another body: another request, another correlation id
            final HttpResponse<String> other = client.send(put(item, "7", "{\"n\":2}"), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, other.statusCode(), other.body());
            assertEquals("{\"echo\":{\"n\":2}}", other.body());
            final List<ConsumerRecord<String, String>> twice = service.requests();
            assertEquals(2, twice.size(), twice.toString());
            assertNotEquals(Responder.header(twice.get(0), Responder.CORRELATION_ID),
                Responder.header(twice.get(1), Responder.CORRELATION_ID));
        }
    }

    private static HttpRequest put(URI uri, String idempotencyKey, String body)
    {
        return HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
            .header("Idempotency-Key", idempotencyKey).header("Content-Type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString(body)).build();
    }
}
