/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.AbstractMap.SimpleEntry;
import java.util.Base64;
import java.util.List;
import java.util.regex.Pattern;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * examples/sse.kafka.fanout as its README uses it: curl -N over HTTP/1.1 and h2c receives every record of the topic as
 * an event, a tombstone as a delete event, the page from the filesystem binding, and bad requests their HTTP answers.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class SseKafkaFanoutExampleTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    // an event id is the progress vector, base64url without padding
    private static final Pattern URL_SAFE = Pattern.compile("[A-Za-z0-9_-]+");

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @Test
    void shouldStreamEveryRecordOverHttp11AndH2c(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final FanoutExample example = new FanoutExample(kafka, topics.create(1));
        example.start(engine);

        try (CurlStream h1 = CurlStream.open(example.url(), "--http1.1");
             CurlStream h2 = CurlStream.open(example.url(), "--http2-prior-knowledge"))
        {
            awaitOpen(h1);
            awaitOpen(h2);
            example.produceRange(0, 3);

            for (CurlStream curl : List.of(h1, h2))
            {
                final List<SseEvent> events = curl.await(3, WAIT);
                assertEquals(List.of("value-0", "value-1", "value-2"), events.stream().map(SseEvent::data).toList(),
                    curl.head());
                for (SseEvent event : events)
                {
                    assertEquals("message", event.type());
                    assertTrue(URL_SAFE.matcher(event.id()).matches(), event.id());
                }
                // each id is a new position
                assertEquals(3, events.stream().map(SseEvent::id).distinct().count(), events.toString());
                assertTrue(curl.head().toLowerCase().contains("content-type: text/event-stream"), curl.head());
            }
            assertTrue(h1.head().startsWith("HTTP/1.1 200"), h1.head());
            assertTrue(h2.head().startsWith("HTTP/2 200"), h2.head());
        }
    }

    @Test
    void shouldSendATombstoneAsADeleteEvent(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final FanoutExample example = new FanoutExample(kafka, topics.create(1));
        example.start(engine);

        try (CurlStream curl = CurlStream.open(example.url()))
        {
            awaitOpen(curl);
            example.produce(List.of(new SimpleEntry<>("item-7", "seven"), new SimpleEntry<>("item-7", null)));

            final List<SseEvent> events = curl.await(2, WAIT);
            assertEquals(2, events.size(), events.toString());
            assertEquals(new SseEvent(events.get(0).id(), "message", "seven"), events.get(0));
            assertEquals("delete", events.get(1).type());
            assertEquals("item-7", new String(Base64.getUrlDecoder().decode(events.get(1).data()), StandardCharsets.UTF_8));
        }
    }

    @Test
    void shouldServeThePageAndRefuseBadRequests(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final FanoutExample example = new FanoutExample(kafka, topics.create(1));
        example.start(engine);
        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        final HttpResponse<String> page = client.send(HttpRequest.newBuilder(URI.create(example.base() + "/index.html"))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.headers().firstValue("content-type").orElse("").startsWith("text/html"), page.headers().toString());
        assertTrue(page.body().contains("new EventSource("), page.body());

        final HttpResponse<String> post = client.send(HttpRequest.newBuilder(URI.create(example.url()))
            .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());

        final HttpResponse<String> overlong = client.send(HttpRequest.newBuilder(URI.create(example.url()))
            .header("Last-Event-ID", "A".repeat(5000)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(400, overlong.statusCode());

        final HttpResponse<String> missing = client.send(HttpRequest.newBuilder(URI.create(example.base() + "/nothing.html"))
            .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, missing.statusCode());
    }

    @Test
    void shouldStartAfreshForAGarbageId(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final FanoutExample example = new FanoutExample(kafka, topics.create(1));
        example.start(engine);

        try (CurlStream fresh = CurlStream.open(example.url());
             CurlStream garbage = CurlStream.open(example.url(), "-H", "Last-Event-ID: not*an~id%00");
             CurlStream query = CurlStream.open(example.url() + "?lastEventId=%21%21%21"))
        {
            awaitOpen(fresh);
            awaitOpen(garbage);
            awaitOpen(query);
            example.produceRange(0, 2);

            final List<String> expected = fresh.await(2, WAIT).stream().map(SseEvent::data).toList();
            assertEquals(List.of("value-0", "value-1"), expected);
            assertEquals(expected, garbage.await(2, WAIT).stream().map(SseEvent::data).toList());
            assertEquals(expected, query.await(2, WAIT).stream().map(SseEvent::data).toList());
        }
    }

    /** Waits for the response head: once it is there, the stream is open and live records reach it. */
    static void awaitOpen(CurlStream curl) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (!curl.head().endsWith("\n\n") && !curl.head().endsWith("\r\n\r\n") && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
        }
        assertTrue(curl.head().contains(" 200"), curl.head());
        // the cache_server fetches the topic once the first subscriber asks for it: give it time to be at its end
        Thread.sleep(500);
    }
}
