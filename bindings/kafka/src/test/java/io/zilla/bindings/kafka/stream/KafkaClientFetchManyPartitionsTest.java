/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.fetchBeginEx;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.records;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

import io.zilla.bindings.kafka.test.KafkaFetchStreams.Fetched;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * FETCH streams of 16 partitions at once, whose shared Fetch answer nearly fills a buffer slot: found by the kafka
 * client benchmark, where it stalled for good. The fetch connection held the first part of a response and gave the
 * tcp stream no more credit (it returned credit per half window only), and a stream that took its records at once
 * was counted as left out of the Fetch that had just answered it.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientFetchManyPartitionsTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int PARTITIONS = 16;
    private static final int PER_PARTITION = 200;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientFetchManyPartitionsTest.class);

    @Test
    void shouldFetchEveryRecordOfSixteenPartitionsFromEarliest(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(PARTITIONS);
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.BATCH_SIZE_CONFIG, 4096);
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config))
        {
            for (int i = 0; i < PARTITIONS * PER_PARTITION; i++)
            {
                producer.send(new ProducerRecord<>(topic, i % PARTITIONS, null, new byte[100]));
            }
        }
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
        final TestClient app = TestBinding.client("app");
        final List<TestStream> streams = new ArrayList<>();
        for (int p = 0; p < PARTITIONS; p++)
        {
            streams.add(app.open(fetchBeginEx(topic, p, EARLIEST)));
        }
        for (TestStream stream : streams)
        {
            stream.await(WAIT, () -> records(stream).size() == PER_PARTITION || stream.reset());
            assertFalse(stream.reset(), () -> "events " + engine.events());
            final List<Fetched> fetched = records(stream);
            for (int i = 0; i < PER_PARTITION; i++)
            {
                assertEquals(i, fetched.get(i).offset());
            }
        }
    }
}
