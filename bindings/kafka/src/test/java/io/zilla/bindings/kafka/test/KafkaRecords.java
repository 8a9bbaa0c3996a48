/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a whole topic with kafka-clients, without a consumer group, as tests check what landed on a broker. */
public final class KafkaRecords
{
    private KafkaRecords()
    {
    }

    /**
     * Every record of {@code topic}, from the start of each partition to its end offset as of the call, read
     * through {@code bootstrap} (the broker itself or the proxy); fails when the end is not reached in
     * {@code timeout}.
     */
    public static List<ConsumerRecord<String, String>> readAll(String bootstrap, String topic, Duration timeout)
    {
        final Map<String, Object> config = Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        final long deadline = System.nanoTime() + timeout.toNanos();
        final List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config))
        {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (PartitionInfo info : consumer.partitionsFor(topic, timeout))
            {
                partitions.add(new TopicPartition(topic, info.partition()));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            boolean reached = false;
            while (!reached && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200)))
                {
                    records.add(record);
                }
                reached = true;
                for (Map.Entry<TopicPartition, Long> entry : end.entrySet())
                {
                    reached &= consumer.position(entry.getKey(), timeout) >= entry.getValue();
                }
            }
            if (!reached)
            {
                throw new AssertionError("did not read " + topic + " to its end offsets " + end + " within " + timeout
                    + " (read " + records.size() + " records)");
            }
        }
        return records;
    }

    /** {@code key value partition offset}, one string per record. */
    public static String describe(ConsumerRecord<String, String> record)
    {
        return record.key() + " " + record.value() + " " + record.partition() + " " + record.offset();
    }
}
