/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

/**
 * Tests write records with fixed timestamps from 2023 (so that they can assert them exactly): the broker must not
 * delete them by time retention. Under the broker's default 7 days, its first retention pass (30 s after it starts,
 * then every 5 minutes) deleted every such record written so far, and a test that read the partition after that pass
 * found a prefix of its records missing (its earliest offset had moved past them).
 */
class EmbeddedKafkaRetentionTest
{
    private static final long OLD_TIMESTAMP = 1_700_000_000_000L;
    private static final long SEVEN_DAYS_MS = 7L * 24 * 3600 * 1000;

    @Test
    void shouldKeepRecordsWithOldTimestamps() throws Exception
    {
        // the retention pass every 200 ms instead of 30 s after start and then every 5 minutes
        try (EmbeddedKafka kafka = new EmbeddedKafka()
            .property("log.initial.task.delay.ms", 200)
            .property("log.retention.check.interval.ms", 200)
            .start();
            Admin admin = kafka.admin())
        {
            // the control: a topic with the broker's former default retention, which a pass empties
            kafka.createTopic("kept", 1);
            kafka.createTopic("expiring", 1);
            final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, "expiring");
            admin.incrementalAlterConfigs(Map.of(resource, List.of(new AlterConfigOp(
                new ConfigEntry("retention.ms", String.valueOf(SEVEN_DAYS_MS)), AlterConfigOp.OpType.SET))))
                .all().get(30, TimeUnit.SECONDS);
            produceOld(kafka, "kept", 10);
            produceOld(kafka, "expiring", 10);

            final TopicPartition kept = new TopicPartition("kept", 0);
            final TopicPartition expiring = new TopicPartition("expiring", 0);
            final long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            // the pass may come while records are being written: it deletes those written so far, a prefix
            while (earliest(admin, expiring) < 10L && System.nanoTime() < deadline)
            {
                Thread.sleep(100);
            }
            assertEquals(10L, earliest(admin, expiring), "a retention pass ran after the records were written");
            assertEquals(0L, earliest(admin, kept), "records with old timestamps kept");
        }
    }

    private static void produceOld(EmbeddedKafka kafka, String topic, int count) throws Exception
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config))
        {
            for (int i = 0; i < count; i++)
            {
                producer.send(new ProducerRecord<>(topic, 0, OLD_TIMESTAMP + i, null, ("v" + i).getBytes(UTF_8)))
                    .get(30, TimeUnit.SECONDS);
            }
        }
    }

    private static long earliest(Admin admin, TopicPartition partition) throws Exception
    {
        return admin.listOffsets(Map.of(partition, OffsetSpec.earliest())).partitionResult(partition)
            .get(30, TimeUnit.SECONDS).offset();
    }
}
