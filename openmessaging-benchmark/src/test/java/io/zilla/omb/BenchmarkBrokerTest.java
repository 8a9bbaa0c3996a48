/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;

class BenchmarkBrokerTest
{
    @Test
    void shouldStartBoundedBroker() throws Exception
    {
        final EmbeddedKafka broker = BenchmarkBroker.create();
        assertFalse(broker.isRunning());
        try (EmbeddedKafka started = broker.start();
             Admin admin = started.admin())
        {
            final ConfigResource node = new ConfigResource(ConfigResource.Type.BROKER, "1");
            final Config config = admin.describeConfigs(Set.of(node)).all().get(30, TimeUnit.SECONDS).get(node);
            assertEquals(Long.toString(256L << 20), config.get("log.retention.bytes").value());
            assertEquals(Long.toString(64L << 20), config.get("log.segment.bytes").value());
            assertEquals("10000", config.get("log.retention.check.interval.ms").value());
            // never by age: the embedded broker's own default, kept
            assertEquals("-1", config.get("log.retention.ms").value());

            final Path memory = Path.of("/dev/shm");
            if (Files.isDirectory(memory) && Files.isWritable(memory))
            {
                assertEquals(memory, started.directory().getParent());
            }
        }
    }
}
