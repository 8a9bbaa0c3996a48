/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.sse;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.driver.BenchmarkConsumer;
import io.zilla.omb.driver.BenchmarkProducer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(EmbeddedKafkaExtension.class)
class SseBenchmarkDriverTest
{
    private static final long TIMEOUT_MS = 30_000;
    private static final int CONNECTIONS_PER_TOPIC = 10;
    private static final int MESSAGES = 40;

    @Test
    void shouldDeliverEveryMessageToEveryConnectionAndResumeDropped(EmbeddedKafka kafka) throws Exception
    {
        final List<String> log = new CopyOnWriteArrayList<>();
        try (KafkaSseServer server = new KafkaSseServer(kafka.bootstrapServers());
             SseBenchmarkDriver driver = new SseBenchmarkDriver(log::add))
        {
            driver.initialize(config(kafka, server.url()));
            final List<String> topics = List.of(driver.getTopicNamePrefix() + "a", driver.getTopicNamePrefix() + "b");
            for (String topic : topics)
            {
                driver.createTopic(topic, 2).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                server.read(topic, 2);
            }
            // every first response ends after 5 events: each connection reconnects once, with Last-Event-ID
            server.dropAfter(5);
            final List<List<byte[]>> received = new ArrayList<>();
            final List<CompletableFuture<BenchmarkConsumer>> consumers = new ArrayList<>();
            for (String topic : topics)
            {
                for (int s = 0; s < CONNECTIONS_PER_TOPIC; s++)
                {
                    final List<byte[]> payloads = new CopyOnWriteArrayList<>();
                    received.add(payloads);
                    consumers.add(driver.createConsumer(topic, "sub-" + s, (payload, timestamp) -> payloads.add(payload)));
                }
            }
            for (CompletableFuture<BenchmarkConsumer> consumer : consumers)
            {
                consumer.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            }

            final List<byte[]> sent = new ArrayList<>();
            for (String topic : topics)
            {
                final BenchmarkProducer producer = driver.createProducer(topic).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                for (int m = 0; m < MESSAGES; m++)
                {
                    // binary payloads, CR and LF included, as the benchmark's random ones are
                    final byte[] payload = new byte[100];
                    for (int i = 0; i < payload.length; i++)
                    {
                        payload[i] = (byte) (m * 31 + i * 7 + topic.length());
                    }
                    payload[8] = '\n';
                    payload[9] = '\r';
                    sent.add(payload);
                    producer.sendAsync(Optional.empty(), payload).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                }
            }

            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
            while (received.stream().anyMatch(r -> r.size() < MESSAGES) && System.nanoTime() < deadline)
            {
                Thread.sleep(20);
            }
            for (int c = 0; c < received.size(); c++)
            {
                final List<byte[]> payloads = received.get(c);
                final List<byte[]> expected = sent.subList(c < CONNECTIONS_PER_TOPIC ? 0 : MESSAGES,
                    c < CONNECTIONS_PER_TOPIC ? MESSAGES : 2 * MESSAGES);
                assertEquals(MESSAGES, payloads.size(), "connection " + c);
                for (int m = 0; m < MESSAGES; m++)
                {
                    assertArrayEquals(expected.get(m), payloads.get(m), "connection " + c + " message " + m);
                }
            }
            assertEquals(2 * CONNECTIONS_PER_TOPIC, server.drops());
            assertEquals(2 * CONNECTIONS_PER_TOPIC, server.lastEventIds().size());
            assertTrue(server.lastEventIds().stream().allMatch("4"::equals), server.lastEventIds().toString());
            final long[] counts = driver.counts();
            assertEquals(2 * CONNECTIONS_PER_TOPIC, counts[0]);
            assertEquals(2L * CONNECTIONS_PER_TOPIC * MESSAGES, counts[1]);
            assertEquals(2 * CONNECTIONS_PER_TOPIC, counts[2]);
            assertEquals(2 * CONNECTIONS_PER_TOPIC, counts[3]);
        }
        assertTrue(log.stream().anyMatch(line -> line.contains("800 events delivered, 20 connection failures, "
            + "20 reconnections")), log.toString());
    }

    @Test
    void shouldRefuseSecondConsumerOfSubscription(EmbeddedKafka kafka) throws Exception
    {
        try (KafkaSseServer server = new KafkaSseServer(kafka.bootstrapServers());
             SseBenchmarkDriver driver = new SseBenchmarkDriver(line -> { }))
        {
            driver.initialize(config(kafka, server.url()));
            final String topic = driver.getTopicNamePrefix() + "c";
            driver.createTopic(topic, 1).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            server.read(topic, 1);
            driver.createConsumer(topic, "sub", (payload, timestamp) -> { }).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final ExecutionException refused = assertThrows(ExecutionException.class,
                () -> driver.createConsumer(topic, "sub", (payload, timestamp) -> { }).get());
            assertTrue(refused.getCause().getMessage().contains("consumerPerSubscription: 1"),
                refused.getCause().getMessage());
        }
    }

    @Test
    void shouldFailConsumerOnNotFound(EmbeddedKafka kafka) throws Exception
    {
        try (KafkaSseServer server = new KafkaSseServer(kafka.bootstrapServers());
             SseBenchmarkDriver driver = new SseBenchmarkDriver(line -> { }))
        {
            driver.initialize(config(kafka, server.url()));
            final ExecutionException failed = assertThrows(ExecutionException.class,
                () -> driver.createConsumer("no-such-topic", "sub", (payload, timestamp) -> { })
                    .get(TIMEOUT_MS, TimeUnit.MILLISECONDS));
            assertTrue(failed.getCause().getMessage().contains("status 404"), failed.getCause().getMessage());
        }
    }

    private static DriverConfig config(EmbeddedKafka kafka, String url)
    {
        return DriverConfig.parse("sse.yaml", String.join("\n",
            "name: sse-test",
            "driverClass: io.zilla.omb.driver.sse.SseBenchmarkDriver",
            "sseUrl: " + url,
            "sseConnectionsPerSecond: 200",
            "sseSelectorThreads: 2",
            "commonConfig: |",
            "  bootstrap.servers=" + kafka.bootstrapServers(),
            "producerConfig: |",
            "  acks=all",
            "  linger.ms=0",
            ""));
    }
}
