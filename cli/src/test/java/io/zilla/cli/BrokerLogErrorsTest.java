/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The demo copies the broker log's ERROR and FATAL lines to stderr, and nothing else. */
class BrokerLogErrorsTest
{
    @TempDir
    Path temp;

    @Test
    void shouldCopyOnlyCompleteErrorLines() throws Exception
    {
        final Path log = temp.resolve("broker.log");
        final StringWriter err = new StringWriter();
        final BrokerLogErrors errors = new BrokerLogErrors(log, new PrintWriter(err, true));

        errors.poll();
        append(log, "[2026-11-21 22:56:37,976] INFO [KafkaRaftServer nodeId=1] Kafka Server started (kafka.server)\n"
            + "[2026-11-21 22:56:38,001] WARN a warning (org.apache.kafka)\n"
            + "[2026-11-21 22:56:38,002] ERROR [ReplicaManager] disk full (kafka.server.ReplicaManager)\n"
            + "java.io.IOException: No space left on device\n"
            + "\tat kafka.log.LogSegment.append(LogSegment.java:1)\n"
            + "[2026-11-21 22:56:38,003] FATAL halting");
        errors.poll();

        assertEquals("kafka: [2026-11-21 22:56:38,002] ERROR [ReplicaManager] disk full (kafka.server.ReplicaManager)\n",
            err.toString());

        append(log, " (kafka.Kafka)\n[2026-11-21 22:56:39,000] INFO ERROR in a message is not an error (kafka)\n");
        errors.poll();

        assertEquals("kafka: [2026-11-21 22:56:38,002] ERROR [ReplicaManager] disk full (kafka.server.ReplicaManager)\n"
            + "kafka: [2026-11-21 22:56:38,003] FATAL halting (kafka.Kafka)\n", err.toString());
    }

    @Test
    void shouldFollowFromThreadUntilClosed() throws Exception
    {
        final Path log = temp.resolve("broker.log");
        final StringWriter err = new StringWriter();
        final BrokerLogErrors errors = new BrokerLogErrors(log, new PrintWriter(err, true)).start();

        append(log, "[2026-11-21 22:56:38,002] ERROR one (kafka)\n");
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (err.toString().isEmpty() && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
        }
        errors.close();
        append(log, "[2026-11-21 22:56:38,003] ERROR after close (kafka)\n");
        Thread.sleep(500);

        assertEquals("kafka: [2026-11-21 22:56:38,002] ERROR one (kafka)\n", err.toString());
    }

    private static void append(Path log, String text) throws Exception
    {
        Files.writeString(log, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }
}
