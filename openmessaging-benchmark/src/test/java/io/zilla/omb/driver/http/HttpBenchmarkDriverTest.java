/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.driver.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.omb.ZillaHttpKafka;
import io.zilla.omb.config.DriverConfig;
import io.zilla.omb.driver.BenchmarkProducer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The HTTP driver through zilla's http-kafka graph in-process, on the embedded broker: every message POSTed over
 * HTTP/1.1 or h2c is acknowledged and received exactly once by the driver's native Kafka consumer.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpBenchmarkDriverTest
{
    private static final long TIMEOUT_MS = 60_000;
    private static final int MESSAGES = 2_000;

    private static ZillaHttpKafka zilla;

    @BeforeAll
    static void startZilla(EmbeddedKafka kafka) throws Exception
    {
        zilla = new ZillaHttpKafka(kafka.bootstrapServers(), 1);
    }

    @AfterAll
    static void stopZilla() throws Exception
    {
        zilla.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {"http/1.1", "h2c"})
    void shouldProduceEveryMessageOverHttpAndConsumeEachOnce(String transport, EmbeddedKafka kafka) throws Exception
    {
        final List<String> log = new CopyOnWriteArrayList<>();
        try (HttpBenchmarkDriver driver = new HttpBenchmarkDriver(log::add))
        {
            driver.initialize(config(kafka, transport));
            final String topic = driver.getTopicNamePrefix() + "topic";
            driver.createTopic(topic, 4).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final Map<Integer, AtomicInteger> received = new ConcurrentHashMap<>();
            driver.createConsumer(topic, "sub", (payload, timestamp) ->
                received.computeIfAbsent(ByteBuffer.wrap(payload).getInt(8), id -> new AtomicInteger()).incrementAndGet())
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);

            final BenchmarkProducer producer = driver.createProducer(topic).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final List<CompletableFuture<Void>> sent = new ArrayList<>();
            for (int m = 0; m < MESSAGES; m++)
            {
                final byte[] payload = new byte[1024];
                ByteBuffer.wrap(payload).putLong(0, System.nanoTime()).putInt(8, m);
                // a quarter with a key: POST /<topic>/<key>
                sent.add(producer.sendAsync(m % 4 == 0 ? Optional.of("key-" + m % 16) : Optional.empty(), payload));
            }
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            assertEquals(MESSAGES, driver.acknowledged());

            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
            while (received.size() < MESSAGES && System.nanoTime() < deadline)
            {
                Thread.sleep(20);
            }
            // a moment more, for a duplicate to show
            Thread.sleep(500);
            assertEquals(MESSAGES, received.size());
            assertTrue(received.values().stream().allMatch(count -> count.get() == 1), "a message received twice");
            producer.close();
        }
        assertTrue(log.stream().anyMatch(line -> line.contains(transport + " requests: " + MESSAGES + " answered 2xx, "
            + "0 4xx, 0 5xx, 0 failed")), log::toString);
    }

    @Test
    void shouldLongPollTheLatestStateWithTheFetchConsumer(EmbeddedKafka kafka) throws Exception
    {
        final List<String> log = new CopyOnWriteArrayList<>();
        final List<Integer> seen = new CopyOnWriteArrayList<>();
        try (HttpBenchmarkDriver driver = new HttpBenchmarkDriver(log::add))
        {
            driver.initialize(config(kafka, "http/1.1", "httpConsumer: fetch", "httpFetchUrl: " + zilla.fetchUrl(),
                "httpFetchWaitSeconds: 5"));
            final String topic = driver.getTopicNamePrefix() + "fetched";
            driver.createTopic(topic, 1).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            // started once its first answer came: a 404 of the empty topic
            driver.createConsumer(topic, "sub", (payload, timestamp) -> seen.add(ByteBuffer.wrap(payload).getInt(8)))
                .get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            final BenchmarkProducer producer = driver.createProducer(topic).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
            for (int m = 0; m < 20; m++)
            {
                final byte[] payload = new byte[64];
                ByteBuffer.wrap(payload).putLong(0, System.nanoTime()).putInt(8, m);
                producer.sendAsync(Optional.empty(), payload).get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
                Thread.sleep(50);
            }
            final long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
            while ((seen.isEmpty() || seen.get(seen.size() - 1) != 19) && System.nanoTime() < deadline)
            {
                Thread.sleep(20);
            }
            // states, not messages: some of the 20, in order, ending with the last; never one twice
            assertTrue(!seen.isEmpty() && seen.get(seen.size() - 1) == 19, seen::toString);
            for (int i = 1; i < seen.size(); i++)
            {
                assertTrue(seen.get(i) > seen.get(i - 1), seen::toString);
            }
            producer.close();
        }
        assertTrue(log.stream().anyMatch(line -> line.contains("fetch: " + seen.size() + " states seen (200)")),
            log::toString);
    }

    private static DriverConfig config(EmbeddedKafka kafka, String transport, String... more)
    {
        return DriverConfig.parse("http.yaml", String.join("\n",
            "name: http-test",
            "driverClass: io.zilla.omb.driver.http.HttpBenchmarkDriver",
            "httpUrl: " + zilla.produceUrl(),
            "httpTransport: " + transport,
            "httpConnections: " + ("h2c".equals(transport) ? 1 : 8),
            "httpMaxStreams: 100",
            String.join("\n", more),
            "commonConfig: |",
            "  bootstrap.servers=" + kafka.bootstrapServers(),
            "consumerConfig: |",
            "  auto.offset.reset=earliest",
            ""));
    }
}
