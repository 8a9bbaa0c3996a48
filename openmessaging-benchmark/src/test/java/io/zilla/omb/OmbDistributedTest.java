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
import java.util.ArrayList;
import java.util.List;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Three benchmark-worker processes on 127.0.0.1 driven over HTTP, against the same run in one process. */
@ExtendWith(EmbeddedKafkaExtension.class)
class OmbDistributedTest
{
    private static final int RATE = 2_000;
    private static final int TEST_SECONDS = 6;
    private static final int SUBSCRIPTIONS = 2;

    @TempDir
    Path output;

    private final WorkerProcesses workers = new WorkerProcesses();

    @AfterEach
    void stopWorkers() throws Exception
    {
        workers.close();
    }

    @Test
    void shouldCountTheSameOnThreeWorkerProcessesAsInOneProcess(EmbeddedKafka kafka) throws Exception
    {
        final Path workload = output.resolve("two-topics.yaml");
        Files.writeString(workload, String.join("\n",
            "name: two topics / two subscriptions",
            "topics: 2",
            "partitionsPerTopic: 2",
            "messageSize: 512",
            "subscriptionsPerTopic: " + SUBSCRIPTIONS,
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: " + RATE,
            "warmupDurationSeconds: 2",
            "testDurationSeconds: " + TEST_SECONDS,
            ""));
        final String addresses = String.join(",", startWorker(), startWorker(), startWorker());

        final TestResult local = run(kafka, workload, "local");
        final TestResult distributed = run(kafka, workload, "distributed", "--workers", addresses);

        // the distributed run did go through the three processes: each one had its driver
        final String workerOutput = workers.output();
        assertEquals(3, workerOutput.split("worker: driver distributed initialized", -1).length - 1, workerOutput);

        for (TestResult result : List.of(local, distributed))
        {
            assertEquals(TEST_SECONDS / 2, result.publishRate.size(), () -> result.publishRate.toString());
            final double published = total(result.publishRate);
            final double consumed = total(result.consumeRate);
            // 2,000 msg/s for 6 s; every message consumed once per subscription (a period's edge may cut a few)
            assertTrue(Math.abs(published - RATE * TEST_SECONDS) < RATE * TEST_SECONDS * 0.1,
                () -> result.driver + " published " + published);
            assertTrue(Math.abs(consumed - published * SUBSCRIPTIONS) < published * SUBSCRIPTIONS * 0.1,
                () -> result.driver + " consumed " + consumed + " of " + published + " times " + SUBSCRIPTIONS);
            assertTrue(result.aggregatedEndToEndLatency50pct > 0, () -> result.driver + " end-to-end p50");
            // across processes the send time is the wall clock's: a skew would show as seconds, or as nothing
            assertTrue(result.aggregatedEndToEndLatencyMax < TEST_SECONDS * 1000.0, () -> result.driver + " e2e max "
                + result.aggregatedEndToEndLatencyMax);
            assertEquals(0.0, total(result.publishErrorRate));
        }
        assertEquals(total(local.publishRate), total(distributed.publishRate), RATE * TEST_SECONDS * 0.1);
        assertEquals(total(local.consumeRate), total(distributed.consumeRate), RATE * TEST_SECONDS * SUBSCRIPTIONS * 0.1);
    }

    private TestResult run(EmbeddedKafka kafka, Path workload, String name, String... extra) throws Exception
    {
        final Path driver = output.resolve(name + ".yaml");
        Files.writeString(driver, Files.readString(Path.of("driver-kafka/kafka-direct.yaml"))
            .replace("name: kafka-direct", "name: " + name));
        final List<String> args = new ArrayList<>(List.of(
            "--drivers", driver.toString(),
            "-b", kafka.bootstrapServers(),
            "--output-dir", output.resolve(name).toString(),
            "--stats-period", "2"));
        args.addAll(List.of(extra));
        args.add(workload.toString());
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));

        final int exit = new CommandLine(main).execute(args.toArray(String[]::new));

        final String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, log);
        if (extra.length > 0)
        {
            // OMB's split of three workers: the first produces, the other two consume
            assertTrue(log.contains("workers: producers on [" + extra[1].split(",")[0] + "], consumers on ["
                + extra[1].split(",")[2] + ", " + extra[1].split(",")[1] + "]"), log);
        }
        return ResultFiles.read(main.written().get(0));
    }

    private String startWorker() throws Exception
    {
        final Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return workers.start(new ProcessBuilder(java.toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
            "io.zilla.omb.worker.BenchmarkWorker", "-a", "127.0.0.1", "-p", "0"));
    }

    private static double total(List<Double> rates)
    {
        // each entry is a rate over a 2 s period
        return rates.stream().mapToDouble(Double::doubleValue).sum() * 2;
    }
}
