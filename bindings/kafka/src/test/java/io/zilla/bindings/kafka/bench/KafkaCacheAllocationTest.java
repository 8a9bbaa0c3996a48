/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.DEFAULT_PARTITION;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.zilla.bindings.kafka.test.KafkaMergedStreams;
import io.zilla.engine.test.ThreadStats;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The kafka cache's fan-out allocates nothing per record on zilla's workers: 100 MERGED subscribers of one 8-partition
 * topic, half on each of two workers, through cache_client and cache_server (the fan-out benchmark's
 * {@link FanoutBenchDriver}, itself allocation-free per record), while a KafkaProducer on the test's own thread writes
 * 1 KiB records. The bytes the worker threads allocated between 20% and 80% of a run's deliveries, after a warm-up
 * run, must be 0: the owner's fetch and appends, the doorbells to both workers, every subscriber's reads and frames.
 * Counted in bytes over deliveries (ThreadMXBean), never in time. A window may hold a one-time cost of the JIT (a String
 * literal resolved, an object re-materialized on a deoptimization), which does not come back, where a cost per record,
 * batch, Fetch, ring or timer tick would be in every window: one window of the attempts must be clean. Too few records
 * for the cache to roll a segment (a roll allocates: new files and their mappings, per 8 MiB of a partition).
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaCacheAllocationTest
{
    private static final int PARTITIONS = 8;
    private static final int WORKERS = 2;
    private static final int SUBSCRIBERS_PER_WORKER = 50;
    private static final int SIZE = 1024;
    private static final int WARMUP_RECORDS = 4_000;
    private static final int WARMUP_RUNS = 2;
    private static final int RECORDS = 6_000;
    private static final double RATE = 20_000.0;
    private static final int ATTEMPTS = 6;
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

    @Test
    void shouldAllocateNothingPerDeliveredRecord(KafkaTopics topics) throws Exception
    {
        assertNothingAllocated(topics, false);
    }

    /** With every kafka.* and stream.* metric on the three kafka bindings: kafka.cache.reads per delivery too. */
    @Test
    void shouldAllocateNothingPerDeliveredRecordWithMetrics(KafkaTopics topics) throws Exception
    {
        assertNothingAllocated(topics, true);
    }

    private static void assertNothingAllocated(KafkaTopics topics, boolean metrics) throws Exception
    {
        ThreadStats.enable();
        final String bootstrap = topics.kafka().bootstrapServers();
        final String topic = topics.create(PARTITIONS);
        try (ZillaKafkaCache zilla = new ZillaKafkaCache(bootstrap, WORKERS, metrics))
        {
            final byte[] beginEx = KafkaMergedStreams.mergedBeginEx(topic, KafkaMergedCapabilities.FETCH_ONLY,
                Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaAckMode.IN_SYNC_REPLICAS);
            final List<FanoutBenchDriver.Subscribers> groups = new ArrayList<>();
            for (FanoutBenchDriver driver : zilla.drivers())
            {
                groups.add(driver.subscribe(beginEx, SUBSCRIBERS_PER_WORKER));
            }
            final int subscribers = WORKERS * SUBSCRIBERS_PER_WORKER;
            final long start = System.nanoTime();
            while (begun(groups) < subscribers && failed(groups) == 0 && System.nanoTime() - start < TIMEOUT_NANOS)
            {
                Thread.sleep(10);
            }
            assertEquals(subscribers, begun(groups), () -> "subscribers begun, events " + zilla.events());

            // the first runs meet every class, lambda and pool for the first time, and have the JIT compile the path
            long produced = 0L;
            for (int warmup = 0; warmup < WARMUP_RUNS; warmup++)
            {
                produced = run(zilla, groups, bootstrap, topic, WARMUP_RECORDS, produced, false);
            }

            final List<String> windows = new ArrayList<>();
            boolean clean = false;
            for (int attempt = 0; attempt < ATTEMPTS && !clean; attempt++)
            {
                final long before = produced;
                final long[] allocated = new long[1];
                produced = run(zilla, groups, bootstrap, topic, RECORDS, before, true, allocated);
                windows.add(allocated[0] >= 0 ? allocated[0] + " B" : "(window not caught)");
                clean = allocated[0] == 0L;
            }
            System.out.println("KafkaCacheAllocationTest" + (metrics ? ", metrics on" : "") + ": bytes the workers allocated"
                + " per window: " + windows);
            if (metrics)
            {
                // not a vacuous run: the cache's metrics were recorded meanwhile
                assertTrue(zilla.counter("kafka_cache_client", "kafka.cache.reads") > 0
                    && zilla.counter("kafka_cache_server", "kafka.cache.fetched") > 0, "kafka.cache.* recorded");
            }
            assertTrue(clean, "bytes zilla's workers allocated over " + (RECORDS * subscribers * 3 / 5) + " deliveries of "
                + SIZE + " B records to " + subscribers + " subscribers, in each attempt: " + windows);
        }
    }

    private static long run(ZillaKafkaCache zilla, List<FanoutBenchDriver.Subscribers> groups, String bootstrap,
        String topic, int records, long before, boolean measured) throws Exception
    {
        return run(zilla, groups, bootstrap, topic, records, before, measured, new long[1]);
    }

    // produces the records, waits for every subscriber to have them all; the workers' bytes between 20% and 80% of the
    // run's deliveries in allocated[0], -1 when the window was not caught in time
    private static long run(ZillaKafkaCache zilla, List<FanoutBenchDriver.Subscribers> groups, String bootstrap,
        String topic, int records, long before, boolean measured, long[] allocated) throws Exception
    {
        final int subscribers = groups.stream().mapToInt(g -> g.count).sum();
        final long first = before * subscribers;
        final long target = (long) records * subscribers;
        final long from = first + target / 5;
        final long to = first + target * 4 / 5;
        final FixedRateProducer producer = new FixedRateProducer(bootstrap, topic, PARTITIONS, SIZE, RATE,
            (long) (records * (1e9 / RATE))).start();
        final long start = System.nanoTime();
        ThreadStats windowStart = null;
        ThreadStats windowEnd = null;
        boolean caught = true;
        while (System.nanoTime() - start < TIMEOUT_NANOS && failed(groups) == 0 && producer.error() == null)
        {
            final long done = delivered(groups);
            if (measured && windowStart == null && done >= from)
            {
                windowStart = ThreadStats.of(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
                // taken late: the window must still lie wholly inside the run
                caught = delivered(groups) < to;
            }
            else if (measured && windowStart != null && windowEnd == null && done >= to)
            {
                windowEnd = ThreadStats.of(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
                caught &= delivered(groups) < first + target;
            }
            if (producer.done() && done >= first + producer.acked() * subscribers)
            {
                break;
            }
            LockSupport.parkNanos(100_000L);
        }
        producer.join();
        assertNull(producer.error());
        assertEquals(records, producer.acked(), "records acknowledged");
        assertEquals(0, failed(groups), () -> groups.stream().map(FanoutBenchDriver.Subscribers::error)
            .filter(e -> e != null).findFirst().orElse("") + ", events " + zilla.events());
        assertEquals(first + target, delivered(groups), () -> "deliveries, events " + zilla.events());
        final long total = before + records;
        for (FanoutBenchDriver.Subscribers group : groups)
        {
            assertEquals(total, group.minRecords(), "the fewest records of a subscriber");
            assertEquals(total, group.maxRecords(), "the most records of a subscriber");
        }
        allocated[0] = measured && caught && windowEnd != null ? windowEnd.minus(windowStart).allocated() : -1L;
        return total;
    }

    private static long delivered(List<FanoutBenchDriver.Subscribers> groups)
    {
        return groups.stream().mapToLong(FanoutBenchDriver.Subscribers::records).sum();
    }

    private static int begun(List<FanoutBenchDriver.Subscribers> groups)
    {
        return groups.stream().mapToInt(FanoutBenchDriver.Subscribers::begun).sum();
    }

    private static int failed(List<FanoutBenchDriver.Subscribers> groups)
    {
        return groups.stream().mapToInt(FanoutBenchDriver.Subscribers::failed).sum();
    }
}
