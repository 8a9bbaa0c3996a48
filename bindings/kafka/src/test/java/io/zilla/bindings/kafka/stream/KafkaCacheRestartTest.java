/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.DEFAULT_PARTITION;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedBeginEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.zilla.bindings.kafka.test.KafkaMergedStreams.Merged;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cache through Kafka's outages, each test with its own broker: Kafka down when zilla starts, then up; the broker
 * killed (SIGKILL) while records fan out, then restarted. Subscribers are not reset, and each gets every acknowledged
 * record once, in order per partition: the cache fetches again from where it is and never appends an offset twice.
 */
class KafkaCacheRestartTest
{
    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final int PARTITIONS = 4;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientMergedTest.class).workers(2);

    @Test
    void shouldFetchOnceKafkaComesUp() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            final String topic = "late";
            kafka.createTopic(topic, PARTITIONS);
            produce(kafka, topic, 0, 10);
            kafka.stop();

            engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.yaml");
            final List<TestStream> streams = subscribe(topic, 10);
            Thread.sleep(2_000);
            for (TestStream stream : streams)
            {
                assertFalse(stream.reset(), "a subscriber waits for Kafka, it is not reset");
                assertEquals(0, records(stream).size());
            }

            kafka.restart();
            produce(kafka, topic, 10, 20);
            assertEveryRecordOnce(streams, 20);
        }
    }

    @Test
    void shouldGoOnAfterTheBrokerIsKilledMidFanOut() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            final String topic = "killed";
            kafka.createTopic(topic, PARTITIONS);
            engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.yaml");
            final List<TestStream> streams = subscribe(topic, 20);
            produce(kafka, topic, 0, 100);
            streams.get(0).await(WAIT, () -> streams.get(0).receivedBytes() > 0);

            kafka.kill();
            kafka.restart();
            produce(kafka, topic, 100, 200);
            assertEveryRecordOnce(streams, 200);
        }
    }

    @AfterEach
    void printEvents()
    {
        engine.events().forEach(e -> System.out.println("event: " + e));
    }

    private static List<TestStream> subscribe(String topic, int count)
    {
        final List<TestStream> streams = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            streams.add(TestBinding.client("app", i % 2).open(mergedBeginEx(topic, KafkaMergedCapabilities.FETCH_ONLY,
                Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaAckMode.IN_SYNC_REPLICAS)));
        }
        return streams;
    }

    // every offset of every partition once, in order, with the key written there (acks=all: all were acknowledged)
    private static void assertEveryRecordOnce(List<TestStream> streams, int perPartition)
    {
        final int total = PARTITIONS * perPartition;
        for (TestStream stream : streams)
        {
            stream.await(WAIT, () -> stream.reset() || stream.receivedBytes() >= total * 8);
            assertFalse(stream.reset(), "a subscriber was reset");
            final List<Merged> records = records(stream);
            final long[] next = new long[PARTITIONS];
            for (Merged record : records)
            {
                assertEquals(next[record.partition()]++, record.offset(), () -> "partition " + record.partition());
                assertEquals(String.format("key-%d-%03d", record.partition(), record.offset()), record.key());
            }
            assertEquals(total, records.size());
        }
    }

    // values of 8 bytes, so that a subscriber's byte count tells how many records it has
    private static void produce(EmbeddedKafka kafka, String topic, int from, int to) throws Exception
    {
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = from; i < to; i++)
            {
                for (int p = 0; p < PARTITIONS; p++)
                {
                    records.add(new ProducerRecord<>(topic, p, String.format("key-%d-%03d", p, i).getBytes(UTF_8),
                        String.format("v-%d-%04d", p, i).getBytes(UTF_8)));
                }
            }
            KafkaCacheFanoutTest.sendAll(producer, records);
        }
    }
}
