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
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * A short OMB run over REST: the shipped HTTP/1.1 and h2c driver files, through zilla's http-kafka graph in-process,
 * in one invocation; each writes a result with its publish rate and latencies, and zilla's CPU and allocation line.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class OmbHttpTest
{
    private static final int RATE = 500;
    private static final String[] DRIVERS = {"http-zilla-h1", "http-zilla-h2c"};

    @TempDir
    Path output;

    @Test
    void shouldRunWorkloadOverHttp1AndH2cThroughZilla(EmbeddedKafka kafka) throws Exception
    {
        final Path workload = output.resolve("http-short.yaml");
        Files.writeString(workload, String.join("\n",
            "name: http short",
            "topics: 1",
            "partitionsPerTopic: 4",
            "messageSize: 1024",
            "subscriptionsPerTopic: 1",
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: " + RATE,
            "warmupDurationSeconds: 2",
            "testDurationSeconds: 4",
            ""));
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));
        final int exit = new CommandLine(main).execute(
            "--drivers", "driver-http/" + DRIVERS[0] + ".yaml,driver-http/" + DRIVERS[1] + ".yaml",
            "-b", kafka.bootstrapServers(),
            "--output-dir", output.toString(),
            "--stats-period", "2",
            workload.toString());
        final String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, log);
        assertTrue(log.contains("zilla http-kafka at http://127.0.0.1:"), log);
        assertTrue(log.contains("B/msg allocated by its workers"), log);
        for (int d = 0; d < 2; d++)
        {
            final String driver = DRIVERS[d];
            final Path file = main.written().get(d);
            assertTrue(file.getFileName().toString().startsWith("http-short-" + driver + "-"), main.written()::toString);
            final TestResult result = ResultFiles.read(file);
            assertEquals(driver, result.driver);
            final double publish = result.publishRate.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            final double consume = result.consumeRate.stream().mapToDouble(Double::doubleValue).average().orElse(0);
            assertTrue(Math.abs(publish - RATE) < RATE * 0.2, () -> driver + " publish " + publish + "\n" + log);
            assertTrue(Math.abs(consume - RATE) < RATE * 0.2, () -> driver + " consume " + consume + "\n" + log);
            assertTrue(result.aggregatedPublishLatency50pct > 0, log);
            assertTrue(result.aggregatedPublishLatency99pct >= result.aggregatedPublishLatency50pct, log);
            assertTrue(result.aggregatedEndToEndLatency50pct > 0, log);
            assertEquals(0, result.publishErrorRate.stream().mapToDouble(Double::doubleValue).sum(), log);
        }
    }
}
