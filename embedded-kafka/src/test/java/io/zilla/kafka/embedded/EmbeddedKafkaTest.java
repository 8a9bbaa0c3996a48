/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import static io.zilla.kafka.embedded.EmbeddedKafkaExtensionTest.consume;
import static io.zilla.kafka.embedded.EmbeddedKafkaExtensionTest.produce;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

class EmbeddedKafkaTest
{
    @Test
    void shouldKeepRecordsAcrossKillAndStopThenCleanUpOnClose() throws Exception
    {
        Path directory;
        ProcessHandle first;
        EmbeddedKafka closed;
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            closed = kafka;
            directory = kafka.directory();
            int port = kafka.port();
            assertNotEquals(port, kafka.controllerPort());
            assertTrue(Files.isRegularFile(directory.resolve("server.properties")));
            assertTrue(Files.readString(kafka.logFile()).contains(EmbeddedKafka.STARTED));

            kafka.createTopic("durable", 1);
            produce(kafka.bootstrapServers(), "durable", "k1", "before kill");
            produce(kafka.bootstrapServers(), "durable", "k2", "acknowledged");

            first = kafka.process();
            kafka.kill();
            assertFalse(first.isAlive());
            assertFalse(kafka.isRunning());

            kafka.restart();
            assertEquals(port, kafka.port());
            assertEquals("127.0.0.1:" + port, kafka.bootstrapServers());
            assertNotEquals(first.pid(), kafka.process().pid());

            List<ConsumerRecord<String, String>> records = consume(kafka.bootstrapServers(), "durable", 0, 2);
            assertEquals(List.of("before kill", "acknowledged"),
                records.stream().map(ConsumerRecord::value).collect(Collectors.toList()));

            kafka.stop();
            assertFalse(kafka.isRunning());
            kafka.restart();
            assertTrue(kafka.isRunning());
            kafka.createTopic("after-restart", 2);
            assertEquals(2, consumeAfterStop(kafka));

            first = kafka.process();
        }

        assertFalse(Files.exists(directory), directory + " still exists");
        assertThrows(IllegalStateException.class, closed::restart);
        assertThrows(IllegalStateException.class, closed::start);
        assertFalse(first.isAlive());
        String marker = directory.toString();
        List<ProcessHandle> left = ProcessHandle.current().descendants()
            .filter(p -> p.info().arguments().map(a -> String.join(" ", a).contains(marker)).orElse(false))
            .collect(Collectors.toList());
        assertEquals(List.of(), left);
    }

    private static int consumeAfterStop(EmbeddedKafka kafka)
    {
        return consume(kafka.bootstrapServers(), "durable", 0, 2).size();
    }

    @Test
    void shouldRejectClassPathWithoutKafka()
    {
        assertThrows(IllegalStateException.class,
            () -> EmbeddedKafka.brokerClassPath("a.jar" + File.pathSeparator + "b.jar"));
        String path = EmbeddedKafka.brokerClassPath(String.join(File.pathSeparator,
            "/m2/kafka_2.13-4.4.0.jar", "/m2/slf4j-simple-2.0.20.jar", "/m2/junit-jupiter-api-5.14.4.jar", "/m2/x.jar"));
        assertEquals("/m2/kafka_2.13-4.4.0.jar" + File.pathSeparator + "/m2/x.jar", path);
    }
}
