/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.ThreadStats;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The whole SSE path allocates nothing per delivered event on zilla's workers: 100 HTTP/1.1 event streams of the
 * example (tcp, http, sse, sse-kafka, kafka cache_client, cache_server, kafka client) on 2 workers, while a producer on
 * the test's thread writes 100-byte records. Counted in bytes over deliveries (ThreadMXBean), never in time: the bytes
 * the worker threads allocated while a window of records reached every stream. A window may hold a one-time cost of
 * the JIT, which does not come back, where a cost per event would be in every window: one window of the attempts must be
 * clean.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class SseKafkaAllocationTest
{
    private static final int CONNECTIONS = 100;
    private static final int PARTITIONS = 4;
    private static final int WARMUP = 6_000;
    private static final int WINDOW = 2_000;
    // the first windows after the warm-up may still carry the JIT's one-time costs and pools growing at a new peak
    // of load (a signaler's deque, a buffer view of a new pool chunk): measured clean from the fourth or fifth on
    private static final int ATTEMPTS = 12;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @Test
    void shouldAllocateNothingPerDeliveredEvent(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        ThreadStats.enable();
        final FanoutExample example = new FanoutExample(kafka, topics.create(PARTITIONS));
        example.start(engine);
        final String value = "v".repeat(100);

        try (SseConnections connections = new SseConnections(example.port, "/" + example.topic, CONNECTIONS).start())
        {
            assertTrue(connections.awaitOpen(deadline()), "open: " + connections);
            Thread.sleep(500);
            int produced = produce(example, 0, WARMUP, value);
            assertTrue(connections.await(produced, deadline()), "warm-up: " + connections);

            final List<Long> windows = new ArrayList<>();
            for (int attempt = 0; attempt < ATTEMPTS; attempt++)
            {
                final ThreadStats before = ThreadStats.of("zilla-worker-");
                produced = produce(example, produced, produced + WINDOW, value);
                if (!connections.await(produced, deadline()))
                {
                    engine.events().forEach(event -> System.out.println("event: " + event));
                }
                assertTrue(connections.minEvents() >= produced, "window: " + connections);
                final long allocated = ThreadStats.of("zilla-worker-").minus(before).allocated();
                windows.add(allocated);
                if (allocated == 0)
                {
                    break;
                }
            }
            engine.events().forEach(event -> System.out.println("event: " + event));
            assertTrue(windows.contains(0L), "bytes allocated on the workers in each window of "
                + WINDOW * CONNECTIONS + " deliveries: " + windows);
        }
    }

    private static int produce(FanoutExample example, int from, int to, String value) throws Exception
    {
        final List<Map.Entry<String, String>> records = new ArrayList<>();
        for (int n = from; n < to; n++)
        {
            records.add(Map.entry("key-" + n, value));
        }
        example.produceAll(records);
        return to;
    }

    private static long deadline()
    {
        return System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT.toSeconds());
    }
}
