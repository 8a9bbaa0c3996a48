/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The launchers of the built distribution (target/openmessaging-benchmark), run as a user runs them: no Maven. */
class OmbDistributionIT
{
    private static final Path HOME = Path.of(System.getProperty("omb.distribution", "target/openmessaging-benchmark"));

    @TempDir
    Path output;

    private final WorkerProcesses processes = new WorkerProcesses();

    @AfterEach
    void stop() throws Exception
    {
        processes.close();
    }

    @Test
    void shouldDescribeOmbsOptionsAndOursInEachLaunchersHelp() throws Exception
    {
        final String benchmark = runToEnd("bin/benchmark", "--help");
        for (String option : List.of("--drivers", "--workers", "--workers-file", "--extra", "--output", "--csv",
            "--bootstrap-servers", "--driver-bootstrap", "--output-dir"))
        {
            assertTrue(benchmark.contains(option), () -> option + " in\n" + benchmark);
        }
        final String compare = runToEnd("bin/benchmark-compare", "--help");
        for (String option : List.of("--repetitions", "--other-bootstrap", "--workers", "--drivers"))
        {
            assertTrue(compare.contains(option), () -> option + " in\n" + compare);
        }
        final String worker = runToEnd("bin/benchmark-worker", "--help");
        assertTrue(worker.contains("--port"), worker);
    }

    @Test
    void shouldRunAWorkloadOnTwoWorkerProcessesFromTheLaunchers() throws Exception
    {
        final Path workload = output.resolve("short-run.yaml");
        Files.writeString(workload, String.join("\n",
            "name: short run",
            "topics: 1",
            "partitionsPerTopic: 2",
            "messageSize: 1024",
            "payloadFile: payload/payload-1Kb.data",
            "subscriptionsPerTopic: 1",
            "producerRate: 1000",
            "warmupDurationSeconds: 1",
            "testDurationSeconds: 4",
            ""));
        final String workers = startWorker() + "," + startWorker();

        final String log = runToEnd("bin/benchmark", "--workers", workers, "--drivers", "driver-kafka/kafka-direct.yaml",
            "--stats-period", "2", "--output-dir", output.resolve("results").toString(), workload.toString());

        assertTrue(log.contains("embedded broker at "), log);
        final Path result;
        try (Stream<Path> files = Files.list(output.resolve("results")))
        {
            result = files.filter(f -> f.getFileName().toString().matches("short-run-kafka-direct-.*\\.json"))
                .findFirst().orElseThrow(() -> new AssertionError("no result file\n" + log));
        }
        final TestResult run = ResultFiles.read(result);
        assertEquals(2, run.publishRate.size(), log);
        final double consumed = run.consumeRate.stream().mapToDouble(Double::doubleValue).sum() * 2;
        assertTrue(consumed > 3_000, () -> "consumed " + consumed + "\n" + log);
    }

    private String startWorker() throws IOException
    {
        return processes.start(new ProcessBuilder(HOME.resolve("bin/benchmark-worker").toString(), "-a", "127.0.0.1",
            "-p", "0").directory(HOME.toFile()));
    }

    private String runToEnd(String launcher, String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of(HOME.resolve(launcher).toString()));
        command.addAll(List.of(args));
        final Process process = processes.add(new ProcessBuilder(command)
            .directory(HOME.toFile())
            .redirectErrorStream(true)
            .start());
        // read apart, so that a launcher that hangs fails the test at the timeout instead of hanging the build
        final CompletableFuture<String> text = CompletableFuture.supplyAsync(() ->
        {
            try
            {
                return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            }
            catch (IOException ex)
            {
                return ex.toString();
            }
        });
        final boolean ended = process.waitFor(3, TimeUnit.MINUTES);
        if (!ended)
        {
            process.destroyForcibly();
        }
        final String output = text.get(20, TimeUnit.SECONDS);
        assertTrue(ended, () -> launcher + " did not end within 3 minutes\n" + output);
        assertEquals(0, process.exitValue(), output);
        return output;
    }
}
