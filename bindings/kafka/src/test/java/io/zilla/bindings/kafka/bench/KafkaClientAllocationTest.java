/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import io.zilla.engine.test.ThreadStats;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The hot path of the kafka client binding allocates nothing per record on zilla's worker (issue 6): the benchmark's
 * driver ({@link ClientBenchDriver}, itself allocation-free per record) produces records through PRODUCE streams and
 * fetches them back through FETCH streams, and the bytes the worker thread allocated between 20% and 80% of a run's
 * records, after a warm-up run, must be 0. Counted in bytes over records (ThreadMXBean), never in time: a slow or
 * stolen host only moves the window, and a window the watching thread did not catch in time is measured again.
 * Per-stream costs (opening, metadata, ListOffsets) fall outside the window; per request, batch, response or timer
 * costs fall inside it, as per-record ones would.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientAllocationTest
{
    private static final int PARTITIONS = 16;
    private static final long WARMUP_RECORDS = 16_000;
    private static final long RECORDS = 32_000;
    private static final int ATTEMPTS = 4;
    private static final long TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(120);

    @ParameterizedTest
    @ValueSource(ints = {1024, 100})
    void shouldAllocateNothingPerRecordUncompressed(int size, KafkaTopics topics) throws Exception
    {
        assertNothingAllocated(topics, "none", size);
    }

    @Test
    void shouldAllocateNothingPerRecordLz4(KafkaTopics topics) throws Exception
    {
        assertNothingAllocated(topics, "lz4", 1024);
    }

    /**
     * With every kafka.* and stream.* metric recorded by the client binding: counters and the request duration
     * histogram are increments in the worker's shared memory, a request's send time waits in a reused queue.
     */
    @Test
    void shouldAllocateNothingPerRecordWithMetrics(KafkaTopics topics) throws Exception
    {
        assertNothingAllocated(topics, "none", 100, true);
    }

    private static void assertNothingAllocated(KafkaTopics topics, String compression, int size) throws Exception
    {
        assertNothingAllocated(topics, compression, size, false);
    }

    private static void assertNothingAllocated(KafkaTopics topics, String compression, int size, boolean metrics)
        throws Exception
    {
        ThreadStats.enable();
        try (ZillaKafkaClient zilla = new ZillaKafkaClient(topics.kafka().bootstrapServers(), compression, metrics))
        {
            // the first runs meet every class, lambda and pool for the first time
            final String warmup = create(topics, compression, size);
            run(zilla, zilla.driver().produce(warmup, PARTITIONS, WARMUP_RECORDS / PARTITIONS, size), false);
            run(zilla, zilla.driver().fetch(warmup, PARTITIONS, WARMUP_RECORDS / PARTITIONS), false);

            // a window may hold a one-time cost of the JIT (a String literal resolved, an object re-materialized
            // when compiled code is deoptimized the first time a branch is taken): such a cost does not come back,
            // where one per request, batch, response or timer would be in every window: each of produce and fetch
            // must have a clean window within the attempts
            final List<String> rounds = new ArrayList<>();
            boolean produceClean = false;
            boolean fetchClean = false;
            for (int attempt = 0; attempt < ATTEMPTS && !(produceClean && fetchClean); attempt++)
            {
                final String topic = create(topics, compression, size);
                final long produced = run(zilla, zilla.driver().produce(topic, PARTITIONS, RECORDS / PARTITIONS, size), true);
                final long fetched = run(zilla, zilla.driver().fetch(topic, PARTITIONS, RECORDS / PARTITIONS), true);
                rounds.add("produce " + bytes(produced) + ", fetch " + bytes(fetched));
                produceClean |= produced == 0L;
                fetchClean |= fetched == 0L;
            }
            if (metrics)
            {
                // not a vacuous run: the metrics were recorded meanwhile
                assertTrue(zilla.counter("kafka.produce.records") > 0 && zilla.counter("kafka.fetch.records") > 0
                    && zilla.counter("kafka.broker.connections") > 0, "kafka.* recorded");
            }
            assertTrue(produceClean && fetchClean, "bytes the worker allocated over " + (RECORDS * 3 / 5) + " records of " + size
                + " B, compression " + compression + (metrics ? ", metrics on" : "") + ", in each round: " + rounds);
        }
    }

    private static String bytes(long allocated)
    {
        return allocated >= 0 ? allocated + " B" : "(window not caught)";
    }

    // the topics of a parameterized test share their names' counter per invocation: the case tells them apart
    private static String create(KafkaTopics topics, String compression, int size)
    {
        final String name = topics.name() + "-" + compression + "-" + size;
        topics.kafka().createTopic(name, PARTITIONS);
        return name;
    }

    // the worker's bytes between 20% and 80% of the run's records, or -1 when the window was not caught in time
    private static long run(ZillaKafkaClient zilla, ClientBenchDriver.DriverRun run, boolean measured)
    {
        final long from = run.target / 5;
        final long to = run.target * 4 / 5;
        final long start = System.nanoTime();
        ThreadStats before = null;
        ThreadStats after = null;
        boolean caught = true;
        while (!run.done() && System.nanoTime() - start < TIMEOUT_NANOS)
        {
            final long done = run.records();
            if (measured && before == null && done >= from)
            {
                before = ThreadStats.of(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
                // taken late: the window must still lie wholly inside the steady state
                caught = run.records() < to;
            }
            else if (measured && before != null && after == null && done >= to)
            {
                after = ThreadStats.of(ZillaKafkaProxy.WORKER_THREAD_PREFIX);
                // taken after the last record: the streams' ends would be inside the window
                caught &= !run.done();
            }
            LockSupport.parkNanos(100_000L);
        }
        assertTrue(run.done(), () -> "timed out: " + run.records() + " of " + run.target + ", per stream "
            + run.progress() + ", events " + zilla.events());
        assertNull(run.error(), () -> run.error() + ", events " + zilla.events());
        assertEquals(run.target, run.records());
        return measured && caught && after != null ? after.minus(before).allocated() : -1L;
    }
}
