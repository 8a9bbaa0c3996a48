/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * examples/sse.kafka.fanout as shipped, on a free port instead of 7114 and on a topic of the test's own instead of
 * {@code events} (tests share one broker), in front of the shared broker; and a producer for its topic.
 */
final class FanoutExample
{
    // tests run in the module directory
    static final Path EXAMPLE = Path.of("..", "..", "examples", "sse.kafka.fanout").toAbsolutePath().normalize();

    final int port;
    final String topic;
    final EmbeddedKafka kafka;

    FanoutExample(EmbeddedKafka kafka, String topic)
    {
        this(kafka, topic, freePort());
    }

    FanoutExample(EmbeddedKafka kafka, String topic, int port)
    {
        this.kafka = kafka;
        this.topic = topic;
        this.port = port;
    }

    /** The example's zilla.yaml with this port and topic. */
    String config()
    {
        try
        {
            return Files.readString(EXAMPLE.resolve("zilla.yaml"))
                .replace("7114", Integer.toString(port))
                .replace("events", topic);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** Starts the example in {@code engine}, the file's own path as its location (www/ is relative to it). */
    Engine start(EngineExtension engine)
    {
        // the engine's own ring size, not the test extension's 1 MiB: an event crosses four bindings on the way out
        // (cache_client, sse-kafka, sse, http), each writing it to the ring again, and a burst to 100 streams filled
        // 1 MiB (engine.ring.full, a stream aborted: docs/bindings/sse-kafka.md)
        engine.property(EngineConfiguration.RING_CAPACITY, 16 * 1024 * 1024);
        engine.env("KAFKA_BOOTSTRAP_SERVER", kafka.bootstrapServers());
        return engine.startText(EXAMPLE.resolve("zilla.yaml").toString(), config());
    }

    String url()
    {
        return "http://localhost:" + port + "/" + topic;
    }

    String base()
    {
        return "http://localhost:" + port;
    }

    /** Produces {@code records} (key to value, a null value is a tombstone) one by one, each acknowledged by Kafka. */
    void produce(List<Map.Entry<String, String>> records) throws Exception
    {
        try (KafkaProducer<String, String> producer = producer())
        {
            for (Map.Entry<String, String> record : records)
            {
                producer.send(new ProducerRecord<>(topic, record.getKey(), record.getValue())).get(30, TimeUnit.SECONDS);
            }
        }
    }

    /** Produces {@code records} in batches, all acknowledged by Kafka when it returns (per partition in order). */
    void produceAll(List<Map.Entry<String, String>> records) throws Exception
    {
        try (KafkaProducer<String, String> producer = producer())
        {
            final List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (Map.Entry<String, String> record : records)
            {
                sent.add(producer.send(new ProducerRecord<>(topic, record.getKey(), record.getValue())));
            }
            for (Future<RecordMetadata> acknowledged : sent)
            {
                acknowledged.get(30, TimeUnit.SECONDS);
            }
        }
    }

    private KafkaProducer<String, String> producer()
    {
        return new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()));
    }

    /** Produces {@code value-<from>} to {@code value-<to - 1>}, keyed {@code key-<n>}. */
    void produceRange(int from, int to) throws Exception
    {
        final List<Map.Entry<String, String>> records = new ArrayList<>();
        for (int n = from; n < to; n++)
        {
            records.add(Map.entry("key-" + n, "value-" + n));
        }
        produce(records);
    }

    static int freePort()
    {
        return FreePorts.next();
    }
}
