/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkProducer;
import io.zilla.omb.driver.sse.SseBenchmarkDriver;
import io.zilla.omb.result.ResultFiles;
import io.zilla.omb.result.TestResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** The SSE driver through zilla's SSE fan-out graph in-process (tcp, http, sse, sse-kafka, kafka cache) on a real broker. */
@ExtendWith(EmbeddedKafkaExtension.class)
class ZillaSseFanoutTest
{
    private static final long TIMEOUT_MS = 30_000;
    private static final int CONNECTIONS = 100;
    private static final int MESSAGES = 20;

    @TempDir
    Path output;

    @Test
    void shouldDeliverEveryMessageToEveryConnection(EmbeddedKafka kafka) throws Exception
    {
        try (ZillaSseFanout zilla = new ZillaSseFanout(kafka.bootstrapServers(), 1);
             SseBenchmarkDriver driver = new SseBenchmarkDriver(line -> { }))
        {
            driver.initialize(DriverConfig.read(Path.of("driver-sse/sse-zilla.yaml"))
                .withBootstrapServers(kafka.bootstrapServers())
                .withSseUrl(zilla.sseUrl()));
            final String topic = driver.getTopicNamePrefix() + "fanout";
            driver.createTopic(topic, 1).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final List<List<byte[]>> received = new ArrayList<>();
            final List<CompletableFuture<BenchmarkConsumer>> consumers = new ArrayList<>();
            for (int c = 0; c < CONNECTIONS; c++)
            {
                final List<byte[]> payloads = new CopyOnWriteArrayList<>();
                received.add(payloads);
                consumers.add(driver.createConsumer(topic, "sub-" + c, (payload, timestamp) -> payloads.add(payload)));
            }
            for (CompletableFuture<BenchmarkConsumer> consumer : consumers)
            {
                consumer.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            final BenchmarkProducer producer = driver.createProducer(topic).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            // a live stream starts at the partition's end once its fetch is positioned, which may follow the response:
            // warm-up messages (first byte 0) until every connection got one, then the counted ones (first byte 1)
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
            while (received.stream().anyMatch(List::isEmpty) && System.nanoTime() < deadline)
            {
                producer.sendAsync(Optional.empty(), new byte[100]).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                Thread.sleep(50);
            }
            final List<byte[]> sent = new ArrayList<>();
            for (int m = 0; m < MESSAGES; m++)
            {
                final byte[] payload = new byte[100];
                for (int i = 0; i < payload.length; i++)
                {
                    payload[i] = (byte) (m * 13 + i);
                }
                payload[0] = 1;
                payload[5] = '\n';
                sent.add(payload);
                producer.sendAsync(Optional.empty(), payload).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }
            while (received.stream().anyMatch(r -> counted(r).size() < MESSAGES) && System.nanoTime() < deadline)
            {
                Thread.sleep(20);
            }
            Thread.sleep(200);
            for (int c = 0; c < CONNECTIONS; c++)
            {
                final List<byte[]> counted = counted(received.get(c));
                assertEquals(MESSAGES, counted.size(), "connection " + c);
                for (int m = 0; m < MESSAGES; m++)
                {
                    assertArrayEquals(sent.get(m), counted.get(m), "connection " + c + " message " + m);
                }
            }
        }
    }

    @Test
    void shouldRunSseWorkloadThroughZilla(EmbeddedKafka kafka) throws Exception
    {
        final Path workload = output.resolve("sse-100-connections.yaml");
        Files.writeString(workload, String.join("\n",
            "name: sse 100 connections through zilla",
            "topics: 1",
            "partitionsPerTopic: 8",
            "messageSize: 100",
            "payloadFile: payload/payload-100b.data",
            "subscriptionsPerTopic: " + CONNECTIONS,
            "consumerPerSubscription: 1",
            "producersPerTopic: 1",
            "producerRate: 50",
            "warmupDurationSeconds: 3",
            "testDurationSeconds: 6",
            ""));
        final ByteArrayOutputStream console = new ByteArrayOutputStream();
        final OmbMain main = new OmbMain(new PrintStream(console, true, StandardCharsets.UTF_8));
        final int exit = new CommandLine(main).execute(
            "--drivers", "driver-sse/sse-zilla.yaml",
            "-b", kafka.bootstrapServers(),
            "--output-dir", output.toString(),
            "--stats-period", "2",
            workload.toString());
        final String log = console.toString(StandardCharsets.UTF_8);
        assertEquals(0, exit, log);
        assertTrue(log.contains("zilla sse fan-out at http://127.0.0.1:"), log);
        final TestResult result = ResultFiles.read(main.written().get(0));
        assertEquals("sse-zilla", result.driver);
        assertEquals(3, result.consumeRate.size(), log);
        final double publish = result.publishRate.stream().mapToDouble(Double::doubleValue).sum();
        final double consume = result.consumeRate.stream().mapToDouble(Double::doubleValue).sum();
        // every connection gets every message, give or take the ones in flight at the periods' ends
        assertTrue(publish > 0, log);
        assertTrue(Math.abs(consume / publish - CONNECTIONS) < 5, () -> consume + " / " + publish + "\n" + log);
        assertTrue(result.aggregatedEndToEndLatency50pct > 0, log);
        assertTrue(result.aggregatedEndToEndLatency99pct >= result.aggregatedEndToEndLatency50pct, log);
        assertTrue(log.matches("(?s).*zilla CPU \\d+\\.\\d\\d cores, \\d+ events/s \\(\\d+ per zilla core\\).*"), log);
    }

    private static List<byte[]> counted(List<byte[]> payloads)
    {
        return payloads.stream().filter(p -> p[0] == 1).toList();
    }
}
