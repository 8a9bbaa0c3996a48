/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.http.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** examples/http.kafka.oneway as its README uses it: 204 from curl, and kcat reads the record with its headers. */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaOnewayExampleTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @Test
    void shouldProduceEveryRequestAsARecord(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        final HttpKafkaExample example = new HttpKafkaExample("http.kafka.oneway", kafka).topic("events", topic);
        example.start(engine);

        final String greeting = "{\"greeting\":\"Hello, world\"}";
        final Curl.Response h1 = Curl.run(example.url("/events"), "-H", "Content-Type: application/json", "-d", greeting);
        assertEquals(204, h1.status(), h1.toString());
        final Curl.Response h2 = Curl.run("--http2-prior-knowledge", example.url("/events"),
            "-H", "Content-Type: text/plain", "-d", "second");
        assertEquals(204, h2.status(), h2.toString());

        // 204 came once Kafka had the record: it is there to read at once
        final String records = Kcat.consume(kafka.bootstrapServers(), topic, "%h|%s\\n");
        final String[] lines = records.split("\n");
        assertEquals(2, lines.length, records);
        assertTrue(lines[0].contains("content-type=application/json") && lines[0].endsWith("|" + greeting), records);
        assertTrue(lines[1].contains("content-type=text/plain") && lines[1].endsWith("|second"), records);
    }
}
