/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.zilla.engine.binding.signal.Doorbell;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CacheRegistryTest
{
    @TempDir
    Path directory;

    @Test
    void shouldGiveEveryWorkerTheSameTopicOwnedByOneWorker() throws Exception
    {
        final CacheRegistry registry = new CacheRegistry(directory, CacheConfig.DEFAULTS, 2);
        final List<CacheTopic> seen = race(8, () -> registry.topic("events"));

        seen.forEach(topic -> assertSame(seen.get(0), topic));
        assertEquals(registry.owner("events"), seen.get(0).owner());
        final Set<Integer> owners = new HashSet<>();
        for (int i = 0; i < 20; i++)
        {
            final int owner = registry.topic("topic-" + i).owner();
            assertTrue(owner == 0 || owner == 1, "owner " + owner);
            owners.add(owner);
        }
        assertEquals(Set.of(0, 1), owners, "twenty topics spread over both workers");
    }

    @Test
    void shouldLetOneCallerAskForTheTopicFirst() throws Exception
    {
        final CacheTopic topic = new CacheRegistry(directory, CacheConfig.DEFAULTS, 4).topic("events");

        final List<Boolean> asked = race(8, topic::request);

        assertEquals(1, asked.stream().filter(Boolean::booleanValue).count(), asked::toString);
        assertTrue(topic.requested());
    }

    @Test
    void shouldRingEachReadingWorkerOncePerBatch()
    {
        final CacheTopic topic = new CacheRegistry(directory, CacheConfig.DEFAULTS, 3).topic("events");
        final CountingDoorbell worker0 = new CountingDoorbell();
        final CountingDoorbell worker2 = new CountingDoorbell();
        topic.readers(0, worker0);
        topic.readers(2, worker2);
        topic.readers(0, new CountingDoorbell());

        topic.appended();
        topic.appended();

        assertEquals(2, worker0.rings.get(), "worker 0's first doorbell is kept");
        assertEquals(2, worker2.rings.get());
    }

    @Test
    void shouldShowThePartitionsTheOwnerPublishedToOtherThreads() throws Exception
    {
        final CacheRegistry registry = new CacheRegistry(directory, CacheConfig.DEFAULTS, 2);
        final CacheTopic topic = registry.topic("events");
        assertNull(topic.partition(0));
        final List<CachePartition> written = new ArrayList<>();
        final Thread owner = new Thread(() ->
        {
            for (int id = 3; id >= 0; id--)
            {
                final CachePartition partition = new CachePartition(registry.directory(), "events", id, registry.config());
                written.add(0, partition);
                topic.partition(id, partition);
            }
        });
        owner.start();
        owner.join();

        final List<CachePartition> read = race(1, () -> List.of(topic.partition(0), topic.partition(1), topic.partition(2),
            topic.partition(3))).get(0);

        assertEquals(4, topic.partitionCount());
        assertEquals(written, read);
        assertNull(topic.partition(4));
    }

    /** {@code call} on {@code threads} threads started together; their results. */
    private static <T> List<T> race(int threads, Callable<T> call) throws Exception
    {
        final ExecutorService pool = Executors.newFixedThreadPool(threads);
        try
        {
            final CountDownLatch go = new CountDownLatch(1);
            final List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < threads; i++)
            {
                futures.add(pool.submit(() ->
                {
                    go.await();
                    return call.call();
                }));
            }
            go.countDown();
            final List<T> results = new ArrayList<>();
            for (Future<T> future : futures)
            {
                results.add(future.get());
            }
            return results;
        }
        finally
        {
            pool.shutdownNow();
        }
    }

    /** A doorbell that counts its rings (the engine's run a handler on a worker; here only the count matters). */
    private static final class CountingDoorbell implements Doorbell
    {
        private final AtomicInteger rings = new AtomicInteger();

        @Override
        public void ring()
        {
            rings.incrementAndGet();
        }

        @Override
        public void close()
        {
        }
    }
}
