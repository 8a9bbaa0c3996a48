/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class WorkloadTest
{
    // the shape of OMB's own workload files, with a field OMB has and we do not use
    private static final String OMB_SAMPLE = String.join("\n",
        "name: 1 topic / 1 partition / 100b",
        "",
        "topics: 1",
        "partitionsPerTopic: 1",
        "keyDistributor: \"NO_KEY\"",
        "messageSize: 100",
        "useRandomizedPayloads: true",
        "randomBytesRatio: 0.5",
        "randomizedPayloadPoolSize: 1000",
        "subscriptionsPerTopic: 1",
        "consumerPerSubscription: 1",
        "producersPerTopic: 1",
        "producerRate: 50000",
        "consumerBacklogSizeGB: 0",
        "backlogDrainRatio: 1.0",
        "testDurationMinutes: 15",
        "warmupDurationMinutes: 5",
        "someFieldOfALaterOmb: [1, 2]",
        "");

    @TempDir
    Path directory;

    @Test
    void shouldParseOmbSampleIgnoringUnknownFields()
    {
        final Workload workload = Workload.parse("sample.yaml", OMB_SAMPLE, directory);

        assertEquals("1 topic / 1 partition / 100b", workload.name());
        assertEquals(1, workload.topics());
        assertEquals(1, workload.partitionsPerTopic());
        assertEquals(KeyDistributorType.NO_KEY, workload.keyDistributor());
        assertEquals(100, workload.messageSize());
        assertTrue(workload.useRandomizedPayloads());
        assertEquals(0.5, workload.randomBytesRatio());
        assertEquals(1000, workload.randomizedPayloadPoolSize());
        assertEquals(50_000.0, workload.producerRate());
        assertEquals(Duration.ofMinutes(15), workload.testDuration());
        assertEquals(Duration.ofMinutes(5), workload.warmupDuration());
        assertNull(workload.payloadFile());
    }

    @Test
    void shouldParseDurationsInSeconds()
    {
        final Workload workload = Workload.parse("short.yaml",
            "name: short\nmessageSize: 64\ntestDurationSeconds: 20\nwarmupDurationSeconds: 0\n", directory);

        assertEquals(Duration.ofSeconds(20), workload.testDuration());
        assertEquals(Duration.ZERO, workload.warmupDuration());
    }

    @Test
    void shouldParseUpstreamCurrentShapes() throws IOException
    {
        // 1-topic-1-partition-100b: the short header, a quoted keyDistributor, a payload file of OMB's path
        final Workload small = read("1-topic-1-partition-100b.yaml",
            "#",
            "# Licensed under the Apache License, Version 2.0 (the \"License\");",
            "#",
            "",
            "name: 1 topic / 1 partition / 100b",
            "",
            "topics: 1",
            "partitionsPerTopic: 1",
            "keyDistributor: \"NO_KEY\"",
            "messageSize: 100",
            "payloadFile: \"payload/payload-100b.data\"",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: 50000",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 15");
        assertEquals(KeyDistributorType.NO_KEY, small.keyDistributor());
        assertEquals(100, small.messageSize());
        assertEquals(Path.of("payload/payload-100b.data").toAbsolutePath(), small.payloadFile());
        assertEquals(50_000.0, small.producerRate());
        assertEquals(Duration.ofMinutes(15), small.testDuration());
        assertEquals(Duration.ofMinutes(1), small.warmupDuration());
        assertFalse(small.runsUntilStopped());

        // 1-topic-3-partition-json-3producers-with-key: keys, 94-byte JSON payload
        final Workload json = read("1-topic-3-partition-json-3producers-with-key.yaml",
            "name: 1 topic / 3 partition / json / 3 producers / with key",
            "topics: 1",
            "partitionsPerTopic: 3",
            "keyDistributor: \"KEY_ROUND_ROBIN\"",
            "messageSize: 94",
            "payloadFile: \"payload/payload-json.data\"",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 3",
            "producerRate: 50",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 2");
        assertEquals(KeyDistributorType.KEY_ROUND_ROBIN, json.keyDistributor());
        assertEquals(94, json.messageSize());
        assertEquals(3, json.producersPerTopic());
        assertEquals(Path.of("payload/payload-json.data").toAbsolutePath(), json.payloadFile());

        // 1m-topic-1kb-4p-4c-2000k: a million topics, randomized payloads without a file
        final Workload million = read("1m-topic-1kb-4p-4c-2000k.yaml",
            "name: 2000k rate 4 producers and 4 consumers on 1m topic",
            "",
            "topics: 1000000",
            "partitionsPerTopic: 1",
            "",
            "messageSize: 1024",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5",
            "randomizedPayloadPoolSize: 1000",
            "",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 4",
            "producersPerTopic: 4",
            "",
            "# Discover max-sustainable rate",
            "producerRate: 2000000",
            "",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 5");
        assertEquals(1_000_000, million.topics());
        assertEquals(4, million.consumerPerSubscription());
        assertEquals(4, million.producersPerTopic());
        assertTrue(million.useRandomizedPayloads());
        assertEquals(0.5, million.randomBytesRatio());
        assertEquals(1000, million.randomizedPayloadPoolSize());
        assertEquals(2_000_000.0, million.producerRate());
        assertNull(million.payloadFile());

        // max-rate-1-topic-1-partition-1p-1c-1kb: the payload file commented out, 10M msg/s as "max rate"
        final Workload maxRate = read("max-rate-1-topic-1-partition-1p-1c-1kb.yaml",
            "name: max-rate-1-topic-1-partition-1p-1c-1kb",
            "topics: 1",
            "partitionsPerTopic: 1",
            "messageSize: 1024",
            "#payloadFile: \"payload/payload-1Kb.data\"",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5",
            "randomizedPayloadPoolSize: 1000",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: 10000000",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 5");
        assertEquals(10_000_000.0, maxRate.producerRate());
        assertNull(maxRate.payloadFile());
        assertEquals(Duration.ofMinutes(5), maxRate.testDuration());

        // max-rate-10-topics-1-partition-64kb: 64 KiB messages, a pool of 100
        final Workload big = read("max-rate-10-topics-1-partition-64kb.yaml",
            "name: max-rate-10-topics-1-partition-64kb",
            "topics: 10",
            "partitionsPerTopic: 1",
            "messageSize: 65536",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5",
            "randomizedPayloadPoolSize: 100",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: 10000000",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 5");
        assertEquals(10, big.topics());
        assertEquals(65_536, big.messageSize());
        assertEquals(100, big.randomizedPayloadPoolSize());

        // 1-topic-100-partitions-1kb-4p-4c-200k-backlog: a 512 GB backlog
        final Workload backlog = read("1-topic-100-partitions-1kb-4p-4c-200k-backlog.yaml",
            "name: 200k rate 4 producers and 4 consumers on 1 topic / 100 partition with backlog",
            "topics: 1",
            "partitionsPerTopic: 100",
            "messageSize: 1024",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5",
            "randomizedPayloadPoolSize: 1000",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 4",
            "producersPerTopic: 4",
            "producerRate: 200000",
            "consumerBacklogSizeGB: 512",
            "testDurationMinutes: 5");
        assertEquals(100, backlog.partitionsPerTopic());
        assertEquals(512.0, backlog.consumerBacklogSizeGB());
        assertEquals(1.0, backlog.backlogDrainRatio());

        // 100-topics-1-partitions-1kb: three subscriptions, four hours
        final Workload long4h = read("100-topics-1-partitions-1kb.yaml",
            "name: 100 topics / 1 partition / 1Kb",
            "topics: 100",
            "partitionsPerTopic: 1",
            "messageSize: 1024",
            "payloadFile: \"payload/payload-1Kb.data\"",
            "subscriptionsPerTopic: 3",
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: 150000",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 240");
        assertEquals(3, long4h.subscriptionsPerTopic());
        assertEquals(Duration.ofMinutes(240), long4h.testDuration());

        // 1-topic-3-partition-100b-3producers: producerRate 0
        final Workload search = read("1-topic-3-partition-100b-3producers.yaml",
            "name: 1 topic / 3 partition / 100b / 3 producers",
            "topics: 1",
            "partitionsPerTopic: 3",
            "messageSize: 100",
            "payloadFile: \"payload/payload-100b.data\"",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 3",
            "producerRate: 0",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 15");
        assertEquals(0.0, search.producerRate());
    }

    @Test
    void shouldParseUpstreamOldShapes() throws IOException
    {
        // the 2018 files: "key : value", no payloadFile, no consumerPerSubscription
        final Workload old = read("1-topic-1-producer-1-consumer-1Kb.yaml",
            "name: 1 producer / 1 consumers on 1 topic",
            "",
            "topics : 1",
            "partitionsPerTopic : 1",
            "messageSize : 1024",
            "subscriptionsPerTopic : 1",
            "producersPerTopic : 1",
            "producerRate : 15000",
            "consumerBacklogSizeGB : 0",
            "testDurationMinutes : 15");
        assertEquals("1 producer / 1 consumers on 1 topic", old.name());
        assertEquals(1, old.topics());
        assertEquals(1024, old.messageSize());
        assertEquals(1, old.subscriptionsPerTopic());
        assertEquals(1, old.consumerPerSubscription());
        assertEquals(15_000.0, old.producerRate());
        assertEquals(Duration.ofMinutes(15), old.testDuration());
        assertNull(old.payloadFile());

        // 1m-10-topics-*-100b: "#payloadFile" commented out with randomized payloads
        final Workload commented = read("1m-10-topics-3-partitions-100b.yaml",
            "name: 1m-10-topics-3-partitions-100b",
            "topics: 10",
            "partitionsPerTopic: 3",
            "messageSize: 100",
            "#payloadFile: \"payload/payload-100b.data\"",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5",
            "randomizedPayloadPoolSize: 1000",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: 1000000",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 15");
        assertEquals(1_000_000.0, commented.producerRate());
        assertNull(commented.payloadFile());

        // backlog-1-topic-1-partition-1kb: no consumerPerSubscription, a 100 GB backlog
        final Workload backlog = read("backlog-1-topic-1-partition-1kb.yaml",
            "name: backlog-1-topic-1-partition-1kb",
            "topics: 1",
            "partitionsPerTopic: 1",
            "messageSize: 1024",
            "payloadFile: \"payload/payload-1Kb.data\"",
            "subscriptionsPerTopic: 1",
            "producersPerTopic: 1",
            "producerRate: 100000",
            "consumerBacklogSizeGB: 100",
            "testDurationMinutes: 5");
        assertEquals(1, backlog.consumerPerSubscription());
        assertEquals(100.0, backlog.consumerBacklogSizeGB());
    }

    @Test
    void shouldIgnoreForkFields() throws IOException
    {
        final Workload fork = read("10-topics-100-partitions-64b.yaml",
            "name: 10-topics-100-partitions-64b",
            "topics: 10",
            "partitionsPerTopic: 100",
            "messageSize: 64",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5",
            "randomizedPayloadPoolSize: 1000",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: 1000",
            "producerStartRate: 1000",
            "producerIncrementRate: 1000",
            "producerIncrementSeconds: 60",
            "acceptableBacklog: 1000",
            "producerPauseBeforeDrain: true",
            "producerPauseDuringDrain: true",
            "messageRateReceivedForSubscription: 50",
            "ensureTopicsAreReady: false",
            "consumerBacklogSizeGB: 0",
            "testDurationMinutes: 5");
        assertEquals(100, fork.partitionsPerTopic());
        assertEquals(64, fork.messageSize());
        assertEquals(1_000.0, fork.producerRate());
    }

    @Test
    void shouldRunUntilStoppedOnZeroTestDuration() throws IOException
    {
        final Workload minutes = read("forever.yaml", "name: forever", "testDurationMinutes: 0");
        assertTrue(minutes.runsUntilStopped());
        assertEquals(Duration.ZERO, minutes.testDuration());

        final Workload seconds = read("forever-s.yaml", "name: forever", "testDurationSeconds: 0");
        assertTrue(seconds.runsUntilStopped());
        assertEquals(Duration.ZERO, seconds.testDuration());

        assertFalse(minutes.withDurations(Duration.ZERO, Duration.ofSeconds(1)).runsUntilStopped());
        assertThrows(InvalidConfigException.class, () -> minutes.withDurations(Duration.ZERO, Duration.ofSeconds(-1)));
    }

    @Test
    void shouldTakeZeroPoolSizeAsDefault() throws IOException
    {
        final Workload zero = read("pool.yaml", "name: pool", "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5", "randomizedPayloadPoolSize: 0");
        assertEquals(1000, zero.randomizedPayloadPoolSize());

        final Workload plain = read("plain.yaml", "name: plain", "randomizedPayloadPoolSize: 0");
        assertEquals(1, plain.randomizedPayloadPoolSize());
    }

    @Test
    void shouldShipUpstreamPayloadFiles() throws IOException
    {
        assertEquals(100, Files.size(Path.of("payload/payload-100b.data")));
        assertEquals(200, Files.size(Path.of("payload/payload-200b.data")));
        assertEquals(400, Files.size(Path.of("payload/payload-400b.data")));
        assertEquals(1024, Files.size(Path.of("payload/payload-1Kb.data")));
        assertEquals(2048, Files.size(Path.of("payload/payload-2Kb.data")));
        assertEquals(4096, Files.size(Path.of("payload/payload-4Kb.data")));
        assertEquals(94, Files.size(Path.of("payload/payload-json.data")));
        assertTrue(new ObjectMapper().readTree(Path.of("payload/payload-json.data").toFile()).isObject());
    }

    @Test
    void shouldParseShippedWorkloads() throws IOException
    {
        final List<Path> files;
        try (Stream<Path> list = Files.list(Path.of("workloads")))
        {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertEquals(11, files.size(), files::toString);
        for (Path file : files)
        {
            final Workload workload = Workload.read(file);
            assertTrue(workload.payloadFile() != null, file::toString);
            assertEquals(workload.messageSize(), Files.size(workload.payloadFile()), file::toString);
        }
        // the HTTP drivers against Kafka in one short run
        final Workload http = Workload.read(Path.of("workloads/zilla-http-1-topic-16-partitions-1kb-10k-short.yaml"));
        assertEquals(16, http.partitionsPerTopic());
        assertEquals(10_000.0, http.producerRate());
        final Workload maxRate = Workload.read(Path.of("workloads/zilla-max-rate-1-topic-16-partitions-1kb.yaml"));
        assertEquals(0.0, maxRate.producerRate());
        final Workload zillaPlus = Workload.read(Path.of("workloads/zilla-plus-1-topic-3-subscriptions-2kb.yaml"));
        assertEquals(2048, zillaPlus.messageSize());
        assertEquals(3, zillaPlus.subscriptionsPerTopic());
        assertEquals(1, zillaPlus.consumerPerSubscription());
        assertEquals(1, zillaPlus.producersPerTopic());
        // the SSE fan-out: N connections are N subscriptions of one consumer, at the same delivered rate
        final String sse = "workloads/zilla-sse-fanout-1-topic-8-partitions-100b-";
        final Workload sse10k = Workload.read(Path.of(sse + "10k-connections.yaml"));
        final Workload sse1k = Workload.read(Path.of(sse + "1k-connections.yaml"));
        assertEquals(10_000, sse10k.subscriptionsPerTopic());
        assertEquals(1, sse10k.consumerPerSubscription());
        assertEquals(8, sse10k.partitionsPerTopic());
        assertEquals(sse10k.producerRate() * 10_000, sse1k.producerRate() * 1_000);
        // over 100 endpoints: the same 10,000 connections, at the full rate and at a fifth of it
        final String endpoints = "workloads/zilla-sse-fanout-100-topics-1-partition-100b-10k-connections";
        final Workload full = Workload.read(Path.of(endpoints + ".yaml"));
        final Workload fifth = Workload.read(Path.of(endpoints + "-100-msgs.yaml"));
        assertEquals(10_000, full.topics() * full.subscriptionsPerTopic());
        assertEquals(full.topics() * full.subscriptionsPerTopic(), fifth.topics() * fifth.subscriptionsPerTopic());
        assertEquals(full.producerRate(), 5 * fifth.producerRate());
    }

    @Test
    void shouldRejectOutOfRangeValuesNamingFieldAndPosition()
    {
        assertInvalid("name: x\nmessageSize: 4\n", "line 2, column 14: messageSize: must be between 8 and");
        assertInvalid("name: x\npartitionsPerTopic: 0\n", "partitionsPerTopic: must be at least 1, was 0");
        assertInvalid("name: x\nrandomBytesRatio: 1.5\n",
            "line 2, column 19: randomBytesRatio: must be between 0 and 1, was 1.5");
        assertInvalid("name: x\nproducerRate: -1\n", "producerRate: must be between 0 and");
        assertInvalid("name: x\ntestDurationSeconds: -1\n",
            "line 2, column 22: testDurationSeconds: must be between 0 and 604800, was -1");
        assertInvalid("name: x\ntestDurationMinutes: -1\n", "testDurationMinutes: must be between 0 and 10080, was -1");
        assertInvalid("name: x\ntopics: 0\n", "line 2, column 9: topics: must be at least 1, was 0");
        assertInvalid("name: x\ntopics: 3000000000\n", "topics: must be at least 1, was 3000000000");
        assertInvalid("name: x\nrandomizedPayloadPoolSize: -1\n", "randomizedPayloadPoolSize: must be between 0 and");
        assertInvalid("name: x\nmessageSize: big\n", "messageSize: expected a whole number, was \"big\"");
        assertInvalid("name: x\nkeyDistributor: SOMETIMES\n",
            "keyDistributor: expected one of [NO_KEY, KEY_ROUND_ROBIN, RANDOM_NANO]");
        assertInvalid("name: x\ntestDurationMinutes: 1\ntestDurationSeconds: 30\n",
            "testDurationSeconds: give testDurationMinutes");
        assertInvalid("name: x\nsubscriptionsPerTopic: 2\nconsumerPerSubscription: 0\n",
            "consumerPerSubscription: must be at least 1");
        assertInvalid("topics: 1\n", "name: required");
        assertInvalid("- a\n- b\n", "expected a mapping of fields");
        assertInvalid("name: [\n", "bad.yaml: line");
    }

    @Test
    void shouldRejectPayloadFileOfAnotherSize() throws IOException
    {
        Files.write(directory.resolve("payload-100b.data"), new byte[100]);

        final Workload ok = Workload.parse("ok.yaml", "name: x\nmessageSize: 100\npayloadFile: payload-100b.data\n", directory);
        assertEquals(directory.resolve("payload-100b.data"), ok.payloadFile());

        final InvalidConfigException ex = assertThrows(InvalidConfigException.class, () -> Workload.parse("bad.yaml",
            "name: x\nmessageSize: 1024\npayloadFile: payload-100b.data\n", directory));
        assertTrue(ex.getMessage().contains("line 3, column 14: payloadFile: "), ex.getMessage());
        assertTrue(ex.getMessage().contains("has 100 bytes but messageSize is 1024"), ex.getMessage());

        final InvalidConfigException missing = assertThrows(InvalidConfigException.class, () -> Workload.parse("bad.yaml",
            "name: x\nmessageSize: 100\npayloadFile: nowhere.data\n", directory));
        assertTrue(missing.getMessage().contains("payloadFile: no such file: nowhere.data"), missing.getMessage());
    }

    private Workload read(String name, String... lines) throws IOException
    {
        final Path file = directory.resolve(name);
        Files.writeString(file, String.join("\n", lines) + "\n");
        return Workload.read(file);
    }

    private void assertInvalid(String yaml, String expected)
    {
        final InvalidConfigException ex =
            assertThrows(InvalidConfigException.class, () -> Workload.parse("bad.yaml", yaml, directory));
        assertTrue(ex.getMessage().startsWith("bad.yaml: "), ex.getMessage());
        assertTrue(ex.getMessage().contains(expected), () -> "expected <" + expected + "> in <" + ex.getMessage() + ">");
        assertFalse(ex.getMessage().isBlank());
    }
}
