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
    void shouldParseShippedWorkloads() throws IOException
    {
        final List<Path> files;
        try (Stream<Path> list = Files.list(Path.of("workloads")))
        {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertEquals(5, files.size(), files::toString);
        for (Path file : files)
        {
            final Workload workload = Workload.read(file);
            assertTrue(workload.payloadFile() != null, file::toString);
            assertEquals(workload.messageSize(), Files.size(workload.payloadFile()), file::toString);
        }
        final Workload maxRate = Workload.read(Path.of("workloads/max-rate-1-topic-16-partitions-1kb.yaml"));
        assertEquals(0.0, maxRate.producerRate());
        final Workload zillaPlus = Workload.read(Path.of("workloads/zilla-plus-1-topic-3-subscriptions-2kb.yaml"));
        assertEquals(2048, zillaPlus.messageSize());
        assertEquals(3, zillaPlus.subscriptionsPerTopic());
        assertEquals(1, zillaPlus.consumerPerSubscription());
        assertEquals(1, zillaPlus.producersPerTopic());
    }

    @Test
    void shouldRejectOutOfRangeValuesNamingFieldAndPosition()
    {
        assertInvalid("name: x\nmessageSize: 4\n", "line 2, column 14: messageSize: must be between 8 and");
        assertInvalid("name: x\npartitionsPerTopic: 0\n", "partitionsPerTopic: must be between 1 and");
        assertInvalid("name: x\nrandomBytesRatio: 1.5\n",
            "line 2, column 19: randomBytesRatio: must be between 0 and 1, was 1.5");
        assertInvalid("name: x\nproducerRate: -1\n", "producerRate: must be between 0 and");
        assertInvalid("name: x\ntestDurationSeconds: 0\n",
            "line 2, column 22: testDurationSeconds: must be between 1 and 604800, was 0");
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

    private void assertInvalid(String yaml, String expected)
    {
        final InvalidConfigException ex =
            assertThrows(InvalidConfigException.class, () -> Workload.parse("bad.yaml", yaml, directory));
        assertTrue(ex.getMessage().startsWith("bad.yaml: "), ex.getMessage());
        assertTrue(ex.getMessage().contains(expected), () -> "expected <" + expected + "> in <" + ex.getMessage() + ">");
        assertFalse(ex.getMessage().isBlank());
    }
}
