/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedKafkaExtension.class)
class EmbeddedKafkaExtensionTest
{
    @Test
    void shouldProduceAndConsume(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        String topic = topics.create();

        RecordMetadata sent = produce(kafka.bootstrapServers(), topic, "key", "value");

        List<ConsumerRecord<String, String>> records = consume(kafka.bootstrapServers(), topic, 0, 1);
        assertEquals(1, records.size());
        assertEquals("key", records.get(0).key());
        assertEquals("value", records.get(0).value());
        assertEquals(sent.offset(), records.get(0).offset());
    }

    @Test
    void shouldCreateTopicWithPartitions(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        String topic = topics.create(8);

        try (Admin admin = kafka.admin())
        {
            TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(topic);
            assertEquals(8, description.partitions().size());
        }
    }

    @Test
    void shouldShareOneBrokerAndNameTopicsPerTest(EmbeddedKafka kafka, KafkaTopics topics, EmbeddedKafka again)
    {
        assertSame(kafka, again);
        assertTrue(kafka.isRunning());
        assertEquals("127.0.0.1:" + kafka.port(), kafka.bootstrapServers());
        String first = topics.name();
        String second = topics.name();
        assertNotEquals(first, second);
        assertTrue(first.startsWith("EmbeddedKafkaExtensionTest-shouldShareOneBrokerAndNameTopicsPerTest-"), first);
    }

    static RecordMetadata produce(String bootstrap, String topic, String key, String value) throws Exception
    {
        Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config))
        {
            return producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        }
    }

    static List<ConsumerRecord<String, String>> consume(String bootstrap, String topic, int partition, int count)
    {
        Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config))
        {
            TopicPartition assigned = new TopicPartition(topic, partition);
            consumer.assign(List.of(assigned));
            consumer.seekToBeginning(List.of(assigned));
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < count && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
