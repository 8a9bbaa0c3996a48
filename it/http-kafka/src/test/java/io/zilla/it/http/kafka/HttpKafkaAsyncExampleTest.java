/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * examples/http.kafka.async as its README uses it: {@code Prefer: respond-async} answers 202 with a Location at once;
 * a long poll of it answers 202 again while there is no reply, and the reply as soon as the service produces it.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaAsyncExampleTest
{
    private static final String ID = "5cf7a1d5-3772-49ef-86e7-ba6f2c7d7d07";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @Test
    void shouldAcceptThenAnswerALongPollOfItsLocation(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String requests = topics.create(1);
        final String responses = topics.create(1);
        final HttpKafkaExample example = new HttpKafkaExample("http.kafka.async", kafka)
            .topic("items-requests", requests).topic("items-responses", responses);
        example.start(engine);

        final Curl.Response accepted = Curl.run("-X", "PUT", example.url("/items/" + ID), "-H", "Idempotency-Key: 1",
            "-H", "Content-Type: application/json", "-H", "Prefer: respond-async", "-d", "{\"greeting\":\"Hello, world\"}");
        assertEquals(202, accepted.status(), accepted.toString());
        final String location = accepted.header("location");
        assertNotNull(location, accepted.toString());
        assertTrue(location.startsWith("/items/" + ID + ";"), location);

        // no reply yet: 202 again after the wait, with the same location
        final long polled = System.nanoTime();
        final Curl.Response pending = Curl.run(example.url(location), "-H", "Prefer: wait=2");
        assertEquals(202, pending.status(), pending.toString());
        assertEquals(location, pending.header("location"), pending.toString());
        assertTrue(Duration.ofNanos(System.nanoTime() - polled).toMillis() >= 1_500, pending.toString());

        final CompletableFuture<Curl.Response> waiting = Curl.start(example.url(location), "-H", "Prefer: wait=60");
        Thread.sleep(500);
        try (Responder service = new Responder(kafka.bootstrapServers(), requests, value -> value.replace("world", "back"))
            .start())
        {
            final Curl.Response reply = waiting.get(30, TimeUnit.SECONDS);
            assertEquals(200, reply.status(), reply.toString());
            assertEquals("{\"greeting\":\"Hello, back\"}", reply.body(), reply.toString());
            // the location names the request's correlation id
            final String correlationId = Responder.header(service.requests().get(0), Responder.CORRELATION_ID);
            assertEquals("/items/" + ID + ";" + correlationId, location);
        }
    }
}
