/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A transactional producer through the proxy commits a transaction, aborts one and commits another (each also
 * sending a group's offsets); read_committed consumers see only the committed records, read_uncommitted ones
 * the aborted records too, and the group keeps only the committed offsets.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyTransactionsTest
{
    private static final int PARTITIONS = 3;
    private static final int PER_TRANSACTION = 12;
    private static final long TIMEOUT_SECONDS = 60;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    @Test
    void shouldSeeOnlyCommittedTransactionsWhenReadCommitted(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(PARTITIONS);
        final String offsetsGroup = topic + "-offsets";
        final TopicPartition source = new TopicPartition(topic, 0);

        final Set<String> committed = new HashSet<>();
        final Set<String> aborted = new HashSet<>();
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(proxy.clientConfig(Map.of(
            ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-tx",
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.MAX_BLOCK_MS_CONFIG, 30_000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000,
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 45_000,
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))))
        {
            producer.initTransactions();

            transaction(producer, topic, "first", committed, offsetsGroup, source, 10);
            producer.commitTransaction();

            transaction(producer, topic, "aborted", aborted, offsetsGroup, source, 99);
            producer.abortTransaction();

            transaction(producer, topic, "third", committed, offsetsGroup, source, 20);
            producer.commitTransaction();
        }

        final int total = committed.size() + aborted.size();
        assertEquals(sorted(committed), sorted(consume(topic, IsolationLevel.READ_COMMITTED, committed.size())));
        final Set<String> all = new HashSet<>(committed);
        all.addAll(aborted);
        assertEquals(sorted(all), sorted(consume(topic, IsolationLevel.READ_UNCOMMITTED, total)));

        try (Admin admin = Admin.create(proxy.adminConfig()))
        {
            final Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(offsetsGroup)
                .partitionsToOffsetAndMetadata().get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            assertEquals(Map.of(source, new OffsetAndMetadata(20, "third")), offsets);
        }
    }

    private static void transaction(KafkaProducer<String, String> producer, String topic, String name, Set<String> keys,
        String group, TopicPartition source, long offset) throws Exception
    {
        producer.beginTransaction();
        for (int i = 0; i < PER_TRANSACTION; i++)
        {
            final String key = name + "-" + i;
            producer.send(new ProducerRecord<>(topic, i % PARTITIONS, key, "value-" + key));
            keys.add(key);
        }
        producer.sendOffsetsToTransaction(Map.of(source, new OffsetAndMetadata(offset, name)),
            new ConsumerGroupMetadata(group));
        producer.flush();
    }

    // reads the topic from the start, without a group, until it has at least the records expected, then a little more
    private List<String> consume(String topic, IsolationLevel isolation, int expected)
    {
        final List<String> keys = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(proxy.clientConfig(Map.of(
            ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation.toString(),
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))))
        {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (int partition = 0; partition < PARTITIONS; partition++)
            {
                partitions.add(new TopicPartition(topic, partition));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> end = consumer.endOffsets(partitions, Duration.ofSeconds(TIMEOUT_SECONDS));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            boolean done = false;
            while (!done && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200)))
                {
                    assertEquals("value-" + record.key(), record.value());
                    keys.add(record.key());
                }
                // the end offset (the last stable offset when read_committed) is past the markers: reaching it means
                // every record this isolation level can see was seen
                done = true;
                for (TopicPartition partition : partitions)
                {
                    done &= consumer.position(partition, Duration.ofSeconds(TIMEOUT_SECONDS)) >= end.get(partition);
                }
            }
            assertTrue(done, isolation + " consumer reached the end offsets " + end);
            assertTrue(keys.size() >= expected, isolation + " consumer saw " + keys.size() + " of " + expected);
        }
        return keys;
    }

    private static List<String> sorted(Collection<String> keys)
    {
        final List<String> list = new ArrayList<>(keys);
        list.sort(null);
        return list;
    }
}
