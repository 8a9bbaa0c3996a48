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

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.omb.driver.sse.KafkaSseServer;
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The SSE driver run as the Kafka workloads are: bin/benchmark's command, a result file and a chart. */
@ExtendWith(EmbeddedKafkaExtension.class)
class OmbSseTest
{
    private static final int CONNECTIONS = 20;
    private static final int RATE = 50;

    @TempDir
    Path output;

    @Test
    void shouldRunSseWorkloadAndCountEveryConnectionsEvents(EmbeddedKafka kafka) throws Exception
    {
        final Path workload = output.resolve("sse-20-connections.yaml");
        Files.writeString(workload, String.join("\n",
            "name: sse 20 connections",
            "topics: 1",
            "partitionsPerTopic: 2",
            "messageSize: 100",
            "subscriptionsPerTopic: " + CONNECTIONS,
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: " + RATE,
            "warmupDurationSeconds: 2",
            "testDurationSeconds: 6",
            ""));
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));
        try (KafkaSseServer server = new KafkaSseServer(kafka.bootstrapServers(), true))
        {
            // the shipped file for an external zilla, pointed at the test's server
            final Path driver = output.resolve("sse-external.yaml");
            Files.writeString(driver, Files.readString(Path.of("driver-sse/sse-external.yaml"))
                .replace("http://127.0.0.1:7114/{topic}", server.url()));
            final int exit = new CommandLine(main).execute(
                "--drivers", driver.toString(),
                "-b", kafka.bootstrapServers(),
                "--output-dir", output.toString(),
                "--stats-period", "2",
                workload.toString());
            final String log = console.toString(StandardCharsets.UTF_8);
            assertEquals(0, exit, log);
            assertTrue(main.written().get(0).getFileName().toString().startsWith("sse-20-connections-sse-external-"),
                main.written()::toString);
            assertTrue(main.written().get(1).getFileName().toString().endsWith(".html"), main.written()::toString);
            final TestResult result = ResultFiles.read(main.written().get(0));
            assertEquals("sse-external", result.driver);
            assertEquals(100, result.messageSize);
            assertEquals(3, result.consumeRate.size(), log);
            final double publish = result.publishRate.stream().mapToDouble(Double::doubleValue).sum();
            final double consume = result.consumeRate.stream().mapToDouble(Double::doubleValue).sum();
            // every connection gets every message: 20 events per message, give or take the messages in flight
            assertTrue(publish > 0, log);
            assertTrue(Math.abs(consume / publish - CONNECTIONS) < 2, () -> consume + " / " + publish + "\n" + log);
            assertTrue(result.aggregatedEndToEndLatency50pct > 0, log);
            assertTrue(result.aggregatedEndToEndLatency99pct >= result.aggregatedEndToEndLatency50pct, log);
        }
    }
}
