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
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class OmbMainTest
{
    @TempDir
    Path output;

    @Test
    void shouldRunWorkloadOnEmbeddedBrokerAndWriteResultAndChart() throws Exception
    {
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));

        final int exit = new CommandLine(main).execute(
            "--drivers", "driver-kafka/kafka-direct.yaml",
            "--output-dir", output.toString(),
            "--warmup-seconds", "5",
            "--test-seconds", "15",
            "--stats-period", "5",
            "workloads/zilla-1-topic-1-partition-1kb-10k.yaml");

        final String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, log);
        final List<Path> written = main.written();
        assertEquals(2, written.size(), written::toString);

        final Path json = written.get(0);
        final String name = json.getFileName().toString();
        assertTrue(name.matches("zilla-1-topic-1-partition-1kb-10k-kafka-direct-\\d{4}(-\\d\\d){5}\\.json"),
            json::toString);
        final TestResult result = ResultFiles.read(json);
        assertEquals("zilla 1 topic / 1 partition / 1Kb / 10k msg/s", result.workload);
        assertEquals("kafka-direct", result.driver);
        assertEquals(1024, result.messageSize);
        assertEquals(3, result.publishRate.size(), log);
        // the intended rate is 10k msg/s; a busy machine may stall a period, but the producer catches up
        final double publish = result.publishRate.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        final double consume = result.consumeRate.stream().mapToDouble(Double::doubleValue).average().orElse(0);
        assertTrue(publish > 7_000 && publish < 13_000, () -> "publish rate " + publish + "\n" + log);
        assertTrue(consume > 7_000 && consume < 13_000, () -> "consume rate " + consume + "\n" + log);
        for (int i = 0; i < 3; i++)
        {
            assertTrue(result.publishRate.get(i) > 0, log);
            assertTrue(result.consumeRate.get(i) > 0, log);
            assertEquals(0.0, result.publishErrorRate.get(i));
        }
        assertEquals(3, result.endToEndLatency99pct.size());
        assertEquals(3, result.publishDelayLatency99pct.size());
        assertTrue(result.aggregatedPublishLatency50pct > 0, log);
        assertTrue(result.aggregatedPublishLatency99pct >= result.aggregatedPublishLatency50pct);
        assertTrue(result.aggregatedPublishLatencyMax >= result.aggregatedPublishLatency99pct);
        assertTrue(result.aggregatedEndToEndLatency50pct > 0, log);
        // no message can take longer than the 20 s run itself (a host stealing 40% of the CPU made p50 a second in CI);
        // nanoseconds reported as milliseconds would break this bound
        assertTrue(result.aggregatedEndToEndLatencyMax < 25_000, log);
        assertTrue(result.aggregatedPublishLatencyMax < 25_000, log);
        assertTrue(result.aggregatedEndToEndLatency999pct >= result.aggregatedEndToEndLatency50pct);
        assertTrue(result.aggregatedPublishDelayLatencyMax >= result.aggregatedPublishDelayLatency50pct);
        assertTrue(result.aggregatedPublishLatencyQuantiles.containsKey(99.9));
        assertTrue(result.aggregatedEndToEndLatencyQuantiles.get(99.0) > 0);
        assertTrue(result.aggregatedPublishDelayLatencyQuantiles.containsKey(50.0));

        final Path chart = written.get(1);
        assertTrue(chart.getFileName().toString().endsWith(".html"), chart::toString);
        final String html = Files.readString(chart);
        assertTrue(html.contains("<svg"));
        assertTrue(html.contains("End-to-end latency by percentile"));
        assertTrue(html.contains("Publish rate"));
        assertEquals(5, html.split("data-series=\"kafka-direct\"", -1).length - 1, html);
    }

    @Test
    @ExtendWith(EmbeddedKafkaExtension.class)
    void shouldBuildAndDrainBacklog(EmbeddedKafka kafka) throws Exception
    {
        // 4 MiB of 1 KiB messages held from the consumers, at 2,000 msg/s: about 2 s to build, then drained
        final Path workload = output.resolve("backlog.yaml");
        Files.writeString(workload, String.join("\n",
            "name: backlog",
            "topics: 1",
            "partitionsPerTopic: 1",
            "messageSize: 1024",
            "subscriptionsPerTopic: 1",
            "producerRate: 2000",
            "consumerBacklogSizeGB: 0.00390625",
            "backlogDrainRatio: 1.0",
            "warmupDurationSeconds: 2",
            "testDurationSeconds: 6",
            ""));
        // the shared broker, named in the driver file itself (--driver-bootstrap: as for an external zilla)
        final Path driver = output.resolve("kafka-direct.yaml");
        Files.writeString(driver, Files.readString(Path.of("driver-kafka/kafka-direct.yaml"))
            .replace("bootstrap.servers=localhost:9092", "bootstrap.servers=" + kafka.bootstrapServers()));
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));

        final int exit = new CommandLine(main).execute(
            "--drivers", driver.toString(),
            "--driver-bootstrap",
            "--output-dir", output.toString(),
            "--stats-period", "1",
            workload.toString());

        final String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, log);
        assertTrue(log.contains("backlog on kafka-direct (" + kafka.bootstrapServers() + ")"), log);
        final Matcher built = Pattern.compile("kafka-direct: backlog of (\\d+) messages built").matcher(log);
        assertTrue(built.find(), log);
        assertTrue(Long.parseLong(built.group(1)) >= 4_096, log);
        assertTrue(log.contains("kafka-direct: backlog drained to "), log);
        final TestResult result = ResultFiles.read(main.written().get(0));
        final long highest = result.backlog.stream().mapToLong(Long::longValue).max().orElse(0);
        assertTrue(highest >= 1_500, () -> "the backlog reached " + highest + "\n" + log);
        final long last = result.backlog.get(result.backlog.size() - 1);
        assertTrue(last < 1_000, () -> "the backlog ended at " + last + "\n" + log);
        final double fastestConsume = result.consumeRate.stream().mapToDouble(Double::doubleValue).max().orElse(0);
        assertTrue(fastestConsume > 3_000, () -> "draining consumes faster than the producers send: " + fastestConsume);
    }

    @Test
    void shouldReportInvalidWorkloadWithoutStartingBroker() throws Exception
    {
        final Path bad = output.resolve("bad.yaml");
        Files.writeString(bad, "name: bad\nmessageSize: 2\n");
        final PrintStream err = System.err;
        final ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        final int exit;
        try
        {
            exit = new CommandLine(new OmbMain()).execute("--drivers", "driver-kafka/kafka-direct.yaml", bad.toString());
        }
        finally
        {
            System.setErr(err);
        }
        assertEquals(2, exit);
        final String message = captured.toString(StandardCharsets.UTF_8);
        assertTrue(message.contains("bad.yaml: line 2, column 14: messageSize: must be between 8"),
            captured::toString);
    }

    @Test
    @ExtendWith(EmbeddedKafkaExtension.class)
    void shouldRunUntilStoppedAndStillWriteTheResult(EmbeddedKafka kafka) throws Exception
    {
        // testDurationMinutes: 0 is OMB's "until stopped": Ctrl-C ends it, and the periods so far are the result
        final Path workload = output.resolve("until-stopped.yaml");
        Files.writeString(workload, String.join("\n",
            "name: until stopped",
            "topics: 1",
            "partitionsPerTopic: 1",
            "messageSize: 1024",
            "producerRate: 1000",
            "warmupDurationMinutes: 0",
            "testDurationMinutes: 0",
            ""));
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));
        final CompletableFuture<Integer> exit = CompletableFuture.supplyAsync(() -> new CommandLine(main).execute(
            "--drivers", "driver-kafka/kafka-direct.yaml",
            "-b", kafka.bootstrapServers(),
            "--output-dir", output.toString(),
            "--stats-period", "1",
            workload.toString()));

        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!console.toString(StandardCharsets.UTF_8).contains("until stopped on kafka-direct: test     3 s")
            && System.nanoTime() < deadline && !exit.isDone())
        {
            Thread.sleep(100);
        }
        main.stopAndAwait(Duration.ofSeconds(60));

        final String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit.get(10, TimeUnit.SECONDS), log);
        final TestResult result = ResultFiles.read(main.written().get(0));
        assertTrue(result.publishRate.size() >= 3, log);
        assertTrue(result.aggregatedEndToEndLatency50pct > 0, log);
    }
}
