/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
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
 * examples/http.kafka.cache as its README uses it: the empty list and its ETag, 304 for that ETag, a 404 after a
 * {@code Prefer: wait}, a long poll that answers as soon as kcat produces the item, and 304 after the wait when
 * nothing changed.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaCacheExampleTest
{
    private static final String KEY = "5cf7a1d5-3772-49ef-86e7-ba6f2c7d7d07";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @Test
    void shouldServeTheTopicsStateWithETagsAndLongPolls(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.createCompacted(1);
        final HttpKafkaExample example = new HttpKafkaExample("http.kafka.cache", kafka).topic("items-snapshots", topic);
        example.start(engine);
        final String items = example.url("/items");
        final String item = items + "/" + KEY;

        final Curl.Response empty = Await.until(() -> Curl.run(items), answer -> answer.status() == 200);
        assertEquals("[]", empty.body(), empty.toString());
        assertEquals("application/json", empty.header("content-type"), empty.toString());
        final String emptyTag = empty.header("etag");
        assertNotNull(emptyTag, empty.toString());

        final Curl.Response unchanged = Curl.run(items, "-H", "If-None-Match: " + emptyTag);
        assertEquals(304, unchanged.status(), unchanged.toString());
        assertEquals(emptyTag, unchanged.header("etag"), unchanged.toString());
        assertEquals("", unchanged.body(), unchanged.toString());

        final long asked = System.nanoTime();
        final Curl.Response absent = Curl.run(item, "-H", "Prefer: wait=2");
        assertEquals(404, absent.status(), absent.toString());
        assertTrue(elapsed(asked).toMillis() >= 1_500, "answered after " + elapsed(asked));

        // a long poll for the item, answered as soon as it is produced
        final CompletableFuture<Curl.Response> waiting = Curl.start(item, "-H", "Prefer: wait=60");
        Thread.sleep(500);
        assertFalse(waiting.isDone(), "answered before the item was produced");
        final String first = "{\"greeting\":\"Hello, world 1\"}";
        final long produced = System.nanoTime();
        Kcat.produce(kafka.bootstrapServers(), topic, KEY, first, "content-type=application/json");
        final Curl.Response found = waiting.get(30, TimeUnit.SECONDS);
        assertEquals(200, found.status(), found.toString());
        assertEquals(first, found.body(), found.toString());
        assertEquals("application/json", found.header("content-type"), found.toString());
        assertTrue(elapsed(produced).toSeconds() < 20, "answered " + elapsed(produced) + " after the produce");
        final String foundTag = found.header("etag");
        assertNotEquals(emptyTag, foundTag, found.toString());

        // nothing changed: 304 after the wait
        final long polled = System.nanoTime();
        final Curl.Response still = Curl.run(item, "-H", "If-None-Match: " + foundTag, "-H", "Prefer: wait=2");
        assertEquals(304, still.status(), still.toString());
        assertTrue(elapsed(polled).toMillis() >= 1_500, "answered after " + elapsed(polled));

        // the next value wakes a long poll on the current ETag
        final CompletableFuture<Curl.Response> next = Curl.start("--http2-prior-knowledge", item,
            "-H", "If-None-Match: " + foundTag, "-H", "Prefer: wait=60");
        Thread.sleep(500);
        final String second = "{\"greeting\":\"Hello, world 2\"}";
        Kcat.produce(kafka.bootstrapServers(), topic, KEY, second, "content-type=application/json");
        final Curl.Response changed = next.get(30, TimeUnit.SECONDS);
        assertEquals(200, changed.status(), changed.toString());
        assertEquals(second, changed.body(), changed.toString());
        assertNotEquals(foundTag, changed.header("etag"), changed.toString());

        final Curl.Response list = Await.until(() -> Curl.run(items), answer -> ("[" + second + "]").equals(answer.body()));
        assertEquals("[" + second + "]", list.body(), list.toString());
    }

    private static Duration elapsed(long since)
    {
        return Duration.ofNanos(System.nanoTime() - since);
    }
}
