/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import static io.zilla.it.sse.kafka.SseKafkaFanoutExampleTest.awaitOpen;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * An event id is the topic's progress, partition by partition, so any zilla in front of the same Kafka resumes a client
 * from it: a client that read some events from one zilla and comes back with its last id to another zilla (a replica
 * behind a load balancer), or to the same zilla restarted, gets exactly the records it had not seen, none twice.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class SseKafkaResumeTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int PARTITIONS = 4;

    @RegisterExtension
    final EngineExtension first = new EngineExtension().workers(2);

    @RegisterExtension
    final EngineExtension second = new EngineExtension().workers(2);

    @Test
    void shouldResumeOnAnotherZillaFromTheLastEventId(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final FanoutExample one = new FanoutExample(kafka, topic);
        final FanoutExample other = new FanoutExample(kafka, topic);
        one.start(first);
        other.start(second);

        shouldResumeWhereItLeft(one, other);
    }

    @Test
    void shouldResumeOnTheSameZillaRestarted(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final FanoutExample example = new FanoutExample(kafka, topics.create(PARTITIONS));
        example.start(first);

        shouldResumeWhereItLeft(example, () ->
        {
            first.engine().close();
            example.start(first);
        });
    }

    private void shouldResumeWhereItLeft(FanoutExample one, FanoutExample other) throws Exception
    {
        shouldResumeWhereItLeft(one, other, () ->
        {
        });
    }

    private void shouldResumeWhereItLeft(FanoutExample example, Runnable between) throws Exception
    {
        shouldResumeWhereItLeft(example, example, between);
    }

    private void shouldResumeWhereItLeft(FanoutExample one, FanoutExample other, Runnable between) throws Exception
    {
        final List<SseEvent> seen;
        try (CurlStream curl = CurlStream.open(one.url()))
        {
            awaitOpen(curl);
            one.produceRange(0, 20);
            seen = curl.await(20, WAIT);
            assertEquals(20, seen.size(), seen.toString());
        }
        // the client saw the first 7 events only: it comes back with the id of the seventh
        final List<SseEvent> kept = seen.subList(0, 7);
        final String lastId = kept.get(kept.size() - 1).id();
        between.run();
        one.produceRange(20, 30);

        final Set<String> expected = new TreeSet<>();
        for (int n = 0; n < 30; n++)
        {
            expected.add("value-" + n);
        }
        kept.forEach(event -> expected.remove(event.data()));

        try (CurlStream curl = CurlStream.open(other.url(), "-H", "Last-Event-ID: " + lastId))
        {
            final List<SseEvent> resumed = curl.await(expected.size(), WAIT);
            final List<String> data = new ArrayList<>();
            resumed.forEach(event -> data.add(event.data()));
            assertEquals(expected, new TreeSet<>(data), "resumed from " + lastId);
            assertEquals(data.size(), new HashSet<>(data).size(), "an event twice: " + data);
            // nothing more arrives after them
            Thread.sleep(500);
            assertEquals(resumed.size(), curl.events().size(), curl.events().toString());
        }
    }
}
