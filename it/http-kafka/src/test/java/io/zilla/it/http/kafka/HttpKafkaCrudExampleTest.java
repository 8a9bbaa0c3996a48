/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** examples/http.kafka.crud as its README uses it, with curl over HTTP/1.1 and h2c, and kcat on the topic. */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaCrudExampleTest
{
    private static final String HELLO = "{\"greeting\":\"Hello, world\"}";
    private static final String AGAIN = "{\"greeting\":\"Hello, again\"}";

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @Test
    void shouldCreateReadUpdateAndDeleteItems(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.createCompacted(1);
        final HttpKafkaExample example = new HttpKafkaExample("http.kafka.crud", kafka).topic("items-snapshots", topic);
        example.start(engine);
        final String items = example.url("/items");

        final Curl.Response created = Curl.run("-X", "POST", items, "-H", "Idempotency-Key: 1",
            "-H", "Content-Type: application/json", "-d", HELLO);
        assertEquals(204, created.status(), created.toString());
        // the record is in Kafka, keyed by the idempotency key, with the request's content type
        assertEquals("1|" + HELLO + "\n", Kcat.consume(kafka.bootstrapServers(), topic, "%k|%s\\n"));
        assertTrue(Kcat.consume(kafka.bootstrapServers(), topic, "%h\\n").contains("content-type=application/json"));

        final Curl.Response item = Await.until(() -> Curl.run(items + "/1"), answer -> answer.status() == 200);
        assertEquals(HELLO, item.body(), item.toString());
        assertEquals("application/json", item.header("content-type"), item.toString());
        assertNotNull(item.header("etag"), item.toString());

        final Curl.Response updated = Curl.run("--http2-prior-knowledge", "-X", "PUT", items + "/2",
            "-H", "Content-Type: application/json", "-d", AGAIN);
        assertEquals(204, updated.status(), updated.toString());
        assertTrue(updated.statusLine().startsWith("HTTP/2"), updated.statusLine());

        final String both = "[" + HELLO + "," + AGAIN + "]";
        final Curl.Response all = Await.until(() -> Curl.run(items), answer -> both.equals(answer.body()));
        assertEquals(both, all.body(), all.toString());
        assertEquals(200, all.status(), all.toString());

        final Curl.Response deleted = Curl.run("-X", "DELETE", items + "/1");
        assertEquals(204, deleted.status(), deleted.toString());
        final Curl.Response gone = Await.until(() -> Curl.run(items + "/1"), answer -> answer.status() == 404);
        assertEquals(404, gone.status(), gone.toString());
        final Curl.Response left = Await.until(() -> Curl.run("--http2-prior-knowledge", items),
            answer -> ("[" + AGAIN + "]").equals(answer.body()));
        assertEquals("[" + AGAIN + "]", left.body(), left.toString());
        // the delete is a tombstone: a record with the key and no value (kcat prints a null value as its -Z marker)
        assertTrue(Kcat.consume(kafka.bootstrapServers(), topic, "%k|%S\\n").endsWith("1|-1\n"),
            Kcat.consume(kafka.bootstrapServers(), topic, "%k|%S\\n"));
    }
}
