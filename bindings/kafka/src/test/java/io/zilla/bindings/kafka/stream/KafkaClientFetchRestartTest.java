/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.fetchBeginEx;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.records;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.kafka.test.KafkaFetchStreams;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The broker restarted under a FETCH stream: the stream is not reset, its Fetch is retried (metadata refreshed, a
 * backoff) until the broker is back, and it goes on from the next offset: every record once, in order. The broker is
 * this test's own.
 */
class KafkaClientFetchRestartTest
{
    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientFetchRestartTest.class);

    @Test
    void shouldResumeAtTheNextOffsetAfterTheBrokerRestarts() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            final String topic = "restarted";
            kafka.createTopic(topic, 1);
            final List<ProducerRecord<byte[], byte[]>> before = new ArrayList<>();
            for (int i = 0; i < 50; i++)
            {
                before.add(KafkaClientFetchTest.record(topic, 0, i));
            }
            try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
            {
                KafkaClientFetchTest.send(producer, before);
            }
            engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
            final TestStream stream = TestBinding.client("app").open(fetchBeginEx(topic, 0, EARLIEST));
            stream.await(WAIT, () -> records(stream).size() >= 50);
            final long opened = counter(engine.directory(), "tcp_client", "connections.opened");

            kafka.restart();

            final List<ProducerRecord<byte[], byte[]>> after = new ArrayList<>();
            for (int i = 50; i < 100; i++)
            {
                after.add(KafkaClientFetchTest.record(topic, 0, i));
            }
            try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
            {
                KafkaClientFetchTest.send(producer, after);
            }
            stream.await(WAIT, () -> records(stream).size() >= 100);
            Thread.sleep(1_000);

            final List<Long> offsets = records(stream).stream().map(KafkaFetchStreams.Fetched::offset).toList();
            final List<Long> expected = new ArrayList<>();
            for (long offset = 0; offset < 100; offset++)
            {
                expected.add(offset);
            }
            assertEquals(expected, offsets, "every record once, in order");
            assertFalse(stream.reset(), "retried through the outage, not reset");
            assertTrue(counter(engine.directory(), "tcp_client", "connections.opened") > opened,
                "fetched again over new connections");
        }
    }
}
