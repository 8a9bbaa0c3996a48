/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkProducer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaBenchmarkDriverTest
{
    private static final int RECORDS = 50;
    private static final long TIMEOUT_MS = 30_000;

    @TempDir
    Path directory;

    @Test
    void shouldRunUpstreamLatencyDriverFileOnOneBroker(EmbeddedKafka kafka) throws Exception
    {
        // the shape of OMB's driver-kafka/kafka-latency.yaml, with the shared broker's address
        final Path file = directory.resolve("kafka-latency.yaml");
        Files.writeString(file, String.join("\n",
            "#",
            "# Licensed under the Apache License, Version 2.0 (the \"License\");",
            "#",
            "",
            "name: Kafka",
            "driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver",
            "",
            "# Kafka client-specific configuration",
            "replicationFactor: 3",
            "reset: true",
            "",
            "topicConfig: |",
            "  min.insync.replicas=2",
            "",
            "commonConfig: |",
            "  bootstrap.servers=" + kafka.bootstrapServers(),
            "  default.api.timeout.ms=1200000",
            "  request.timeout.ms=1200000",
            "",
            "producerConfig: |",
            "  acks=all",
            "  linger.ms=1",
            "  batch.size=131072",
            "",
            "consumerConfig: |",
            "  auto.offset.reset=earliest",
            "  enable.auto.commit=false",
            "  max.partition.fetch.bytes=10485760",
            "someFieldOfALaterOmb: 1",
            ""));
        final List<String> log = new CopyOnWriteArrayList<>();
        final List<byte[]> received = new CopyOnWriteArrayList<>();
        try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver(log::add);
             Admin admin = kafka.admin())
        {
            driver.initialize(DriverConfig.read(file));
            assertEquals(List.of("driver Kafka: replicationFactor 3 capped to 1, min.insync.replicas 2 capped to 1 "
                + "(the cluster has 1 broker)"), log);

            final String topic = driver.getTopicNamePrefix() + "latency";
            driver.createTopic(topic, 2).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final TopicDescription description = admin.describeTopics(Set.of(topic)).allTopicNames()
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS).get(topic);
            assertEquals(2, description.partitions().size());
            assertEquals(1, description.partitions().get(0).replicas().size());
            final ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
            final Config config = admin.describeConfigs(Set.of(resource)).all()
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS).get(resource);
            assertEquals("1", config.get("min.insync.replicas").value());

            final BenchmarkConsumer consumer = driver.createConsumer(topic, "sub-latency",
                (payload, publishTimestamp) -> received.add(payload)).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final BenchmarkProducer producer = driver.createProducer(topic).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            for (int i = 0; i < RECORDS; i++)
            {
                producer.sendAsync(Optional.of("key-" + i), ("record-" + i).getBytes(StandardCharsets.UTF_8))
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            awaitReceived(received, RECORDS);
            assertEquals(IntStream.range(0, RECORDS).mapToObj(i -> "record-" + i).collect(Collectors.toSet()),
                received.stream().map(p -> new String(p, StandardCharsets.UTF_8)).collect(Collectors.toSet()));

            // enable.auto.commit=false: the driver commits each poll's offsets, so the group's offsets reach the end
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
            long committed = committed(admin, "sub-latency", topic);
            while (committed < RECORDS && System.nanoTime() < deadline)
            {
                Thread.sleep(100);
                committed = committed(admin, "sub-latency", topic);
            }
            assertEquals(RECORDS, committed);
            consumer.close();
        }
    }

    @Test
    void shouldLeaveCommitsToTheClientWithAutoCommit(EmbeddedKafka kafka) throws Exception
    {
        // enable.auto.commit=true and a commit interval longer than the test: no offsets unless the driver commits
        final DriverConfig config = DriverConfig.parse("auto-commit.yaml", String.join("\n",
            "name: auto-commit",
            "driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver",
            "replicationFactor: 1",
            "commonConfig: |",
            "  bootstrap.servers=" + kafka.bootstrapServers(),
            "consumerConfig: |",
            "  auto.offset.reset=earliest",
            "  enable.auto.commit=true",
            "  auto.commit.interval.ms=600000",
            ""));
        final List<String> log = new CopyOnWriteArrayList<>();
        final List<byte[]> received = new CopyOnWriteArrayList<>();
        try (KafkaBenchmarkDriver driver = new KafkaBenchmarkDriver(log::add);
             Admin admin = kafka.admin())
        {
            driver.initialize(config);
            assertEquals(List.of(), log);
            final String topic = driver.getTopicNamePrefix() + "auto-commit";
            driver.createTopic(topic, 1).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            driver.createConsumer(topic, "sub-auto-commit", (payload, publishTimestamp) -> received.add(payload))
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final BenchmarkProducer producer = driver.createProducer(topic).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            for (int i = 0; i < RECORDS; i++)
            {
                producer.sendAsync(Optional.empty(), new byte[16]).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            awaitReceived(received, RECORDS);
            // a few more polls: a commit after a poll would have reached the broker by now
            Thread.sleep(1_000);
            final Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets("sub-auto-commit")
                .partitionsToOffsetAndMetadata().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            assertNull(offsets.get(new TopicPartition(topic, 0)), offsets::toString);
        }
    }

    private static void awaitReceived(List<byte[]> received, int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
        while (received.size() < count && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
        }
        assertEquals(count, received.size());
    }

    private static long committed(Admin admin, String group, String topic) throws Exception
    {
        final Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
            .partitionsToOffsetAndMetadata().get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
        long sum = 0;
        for (Map.Entry<TopicPartition, OffsetAndMetadata> entry : offsets.entrySet())
        {
            assertTrue(entry.getKey().topic().equals(topic), entry::toString);
            sum += entry.getValue() != null ? entry.getValue().offset() : 0;
        }
        return sum;
    }
}
