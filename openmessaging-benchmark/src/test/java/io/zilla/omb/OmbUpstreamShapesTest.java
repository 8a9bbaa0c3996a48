/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Workload and driver files written the way upstream's are (their fields, value shapes and layouts, our own values),
 * run briefly as a user runs upstream's files: unchanged, on the one embedded broker.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class OmbUpstreamShapesTest
{
    @TempDir
    Path directory;

    @Test
    void shouldRunUpstreamShapedFilesUnchanged(EmbeddedKafka kafka) throws Exception
    {
        // driver-kafka/kafka-latency.yaml's shape: replication 3 and min.insync.replicas 2 on a cluster of one broker
        final Path driver = write("kafka-latency.yaml",
            "name: Kafka",
            "driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver",
            "replicationFactor: 3",
            "topicConfig: |",
            "  min.insync.replicas=2",
            "commonConfig: |",
            "  bootstrap.servers=" + kafka.bootstrapServers(),
            "  default.api.timeout.ms=1200000",
            "  request.timeout.ms=1200000",
            "producerConfig: |",
            "  acks=all",
            "  linger.ms=1",
            "  batch.size=1048576",
            "consumerConfig: |",
            "  auto.offset.reset=earliest",
            "  enable.auto.commit=false",
            "  max.partition.fetch.bytes=10485760");
        // the 2018 layout: "key : value", no consumerPerSubscription
        final Path old = write("1-topic-1-producer-1-consumer-1Kb.yaml",
            "name : 1 producer / 1 consumers on 1 topic",
            "topics : 1",
            "partitionsPerTopic : 1",
            "messageSize : 1024",
            "subscriptionsPerTopic : 1",
            "producersPerTopic : 1",
            "producerRate : 2000",
            "consumerBacklogSizeGB : 0",
            "testDurationMinutes : 15");
        // keys in turn, a JSON payload file of upstream's name, three producers
        final Path keyed = write("1-topic-3-partition-json-3producers-with-key.yaml",
            "name: 1 topic / 3 partition / json / 3 producers / with key",
            "topics: 1",
            "partitionsPerTopic: 3",
            "keyDistributor: \"KEY_ROUND_ROBIN\"",
            "messageSize: 94",
            "payloadFile: \"payload/payload-json.data\"",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 3",
            "producerRate: 1500",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 2");
        // randomized payloads of 100 bytes (the payload file commented out), two consumers per subscription, and the
        // rate left to the rate controller
        final Path randomized = write("1-topic-3-partition-100b-3producers.yaml",
            "name: 1 topic / 3 partition / 100b / rate controlled",
            "topics: 1",
            "partitionsPerTopic: 3",
            "messageSize: 100",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5",
            "randomizedPayloadPoolSize: 100",
            "#payloadFile: \"payload/payload-100b.data\"",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 2",
            "producersPerTopic: 1",
            "producerRate: 0",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 5");
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));

        final int exit = new CommandLine(main).execute(
            "--drivers", driver.toString(),
            "--driver-bootstrap",
            "--output-dir", directory.resolve("results").toString(),
            "--warmup-seconds", "0",
            "--test-seconds", "6",
            "--stats-period", "2",
            old.toString(), keyed.toString(), randomized.toString());

        final String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, log);
        final List<Path> results = main.written().stream().filter(f -> f.toString().endsWith(".json")).toList();
        assertEquals(List.of("1-topic-1-producer-1-consumer-1Kb-Kafka", "1-topic-3-partition-json-3producers-with-key-Kafka",
            "1-topic-3-partition-100b-3producers-Kafka"),
            results.stream().map(f -> f.getFileName().toString().replaceAll("-\\d{4}(-\\d\\d){5}\\.json$", "")).toList());
        for (Path file : results)
        {
            final TestResult result = ResultFiles.read(file);
            final double consumed = result.consumeRate.stream().mapToDouble(Double::doubleValue).sum() * 2;
            assertTrue(consumed > 1_000, () -> result.workload + " consumed " + consumed + "\n" + log);
            assertEquals(0.0, result.publishErrorRate.stream().mapToDouble(Double::doubleValue).sum(), log);
        }
        final TestResult controlled = ResultFiles.read(results.get(2));
        assertTrue(controlled.maxRateSearch, log);
        assertEquals(2, controlled.consumersPerTopic, "OMB's consumersPerTopic: the consumers of one subscription");
    }

    private Path write(String name, String... lines) throws Exception
    {
        final Path file = directory.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return file;
    }

    @Test
    void shouldRunUpstreamsCompressedAndExactlyOnceDriverShapes(EmbeddedKafka kafka) throws Exception
    {
        // driver-kafka/kafka-big-batches-zstd.yaml's and kafka-exactly-once.yaml's shapes: the codecs and idempotence
        // that kafka-clients brings must be in the distribution's class path and work against the broker
        final Path zstd = write("kafka-big-batches-zstd.yaml",
            "name: Kafka-zstd",
            "driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver",
            "replicationFactor: 3",
            "topicConfig: |",
            "  min.insync.replicas=2",
            "commonConfig: |",
            "  bootstrap.servers=" + kafka.bootstrapServers(),
            "producerConfig: |",
            "  acks=all",
            "  linger.ms=200",
            "  batch.size=1048576",
            "  compression.type=zstd",
            "consumerConfig: |",
            "  auto.offset.reset=earliest",
            "  enable.auto.commit=false",
            "  max.partition.fetch.bytes=10485760");
        final Path exactlyOnce = write("kafka-exactly-once.yaml",
            "name: Kafka-exactly-once",
            "driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver",
            "replicationFactor: 3",
            "topicConfig: |",
            "  min.insync.replicas=2",
            "commonConfig: |",
            "  bootstrap.servers=" + kafka.bootstrapServers(),
            "producerConfig: |",
            "  enable.idempotence=true",
            "  max.in.flight.requests.per.connection=1",
            "  retries=2147483647",
            "  acks=all",
            "  linger.ms=1",
            "  batch.size=1048576",
            "consumerConfig: |",
            "  auto.offset.reset=earliest",
            "  enable.auto.commit=false");
        final Path workload = write("simple-workload.yaml",
            "name: Simple Workload 1 producer on 1 topic",
            "topics: 1",
            "partitionsPerTopic: 10",
            "messageSize: 1024",
            "payloadFile: \"payload/payload-1Kb.data\"",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: 2000",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 5");
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));

        final int exit = new CommandLine(main).execute(
            "--drivers", zstd + "," + exactlyOnce,
            "--driver-bootstrap",
            "--output-dir", directory.resolve("results").toString(),
            "--warmup-seconds", "1",
            "--test-seconds", "4",
            "--stats-period", "2",
            workload.toString());

        final String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, log);
        for (Path file : main.written().stream().filter(f -> f.toString().endsWith(".json")).toList())
        {
            final TestResult result = ResultFiles.read(file);
            final double consumed = result.consumeRate.stream().mapToDouble(Double::doubleValue).sum() * 2;
            assertTrue(consumed > 4_000, () -> result.driver + " consumed " + consumed + "\n" + log);
        }
    }
}
