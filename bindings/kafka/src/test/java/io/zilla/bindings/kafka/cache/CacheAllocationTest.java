/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static io.zilla.bindings.kafka.cache.CacheBuffers.bytes;
import static io.zilla.bindings.kafka.cache.CacheBuffers.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

import io.zilla.bindings.kafka.cache.CacheConfig.CleanupPolicy;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The data path allocates nothing: after a warm-up, 100,000 appends, 100,000 cursor reads and 100,000 filtered
 * reads, across a frozen segment and the head, allocate 0 bytes on this thread (ThreadMXBean). Rolls, which create
 * files, are kept out of the measured windows. The same on a compacted partition, where the frozen segment is the one
 * the cleaner rewrote (two keys: its last two records) and the reads cross from it into the head.
 */
class CacheAllocationTest
{
    private static final int MEASURED = 100_000;
    private static final int WARM_UP = 100_000;
    private static final long HOUR = 3_600_000L;

    @TempDir
    Path cache;

    private final com.sun.management.ThreadMXBean threads =
        (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    private final AtomicLong now = new AtomicLong();
    private final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
    private final UnsafeBuffer value = new UnsafeBuffer(new byte[100]);
    private final DirectBuffer headers = headers("source", "bench", "trace", null);
    private long nextOffset;
    private long checksum;

    @ParameterizedTest
    @EnumSource(value = CleanupPolicy.class, names = {"DELETE", "COMPACT"})
    void shouldAllocateNothingPerAppendOrRead(CleanupPolicy policy)
    {
        assertTrue(threads.isThreadAllocatedMemorySupported() && threads.isThreadAllocatedMemoryEnabled());
        final CacheConfig config = CacheConfig.DEFAULTS
            .withSegmentBytes(256 << 20)
            .withSegmentIndexBytes(16 << 20)
            .withSegmentMs(HOUR)
            .withRetentionMs(CacheConfig.UNLIMITED)
            .withCleanupPolicy(policy);
        final CachePartition partition = new CachePartition(cache, "events", 0, config, now::get);
        final CacheCursor cursor = new CacheCursor(partition);
        final CacheCursor filtered = new CacheCursor(partition).filter(new CacheFilter().key(bytes("key-0001")));

        // warm-up: one segment of WARM_UP records frozen by time (compacted: its last two left), then as many in the
        // head, each read three times
        append(partition, WARM_UP);
        now.addAndGet(HOUR);
        append(partition, WARM_UP);
        final int held = policy.compacts() ? 2 + WARM_UP : 2 * WARM_UP;
        for (int round = 0; round < 3; round++)
        {
            read(cursor, 0, held);
            read(filtered, 0, held / 2);
        }
        assertEquals(2, partition.segments().length);
        assertTrue(partition.segments()[0].frozen());
        assertEquals(policy.compacts(), partition.segments()[0].compacted());
        assertEquals(policy.compacts() ? 2 : WARM_UP, partition.segments()[0].records());

        final long baseline = allocated();
        final long appends = measure(() -> append(partition, MEASURED));
        assertEquals(2, partition.segments().length, "no roll in the measured window");
        // from the middle of the frozen segment into the head
        final long reads = measure(() -> read(cursor, WARM_UP / 2, MEASURED));
        // one record in two has the key: frozen segment (hash index), then the head (hash scan)
        final long filteredReads = measure(() -> read(filtered, 0, MEASURED));

        System.out.printf("CacheAllocationTest %s: %d bytes over %d appends, %d over %d reads, %d over %d filtered reads "
            + "(measuring itself: %d bytes); checksum %d%n", policy, appends, MEASURED, reads, MEASURED, filteredReads, MEASURED,
            baseline, checksum);
        assertEquals(0, appends, "bytes allocated by " + MEASURED + " appends");
        assertEquals(0, reads, "bytes allocated by " + MEASURED + " reads");
        assertEquals(0, filteredReads, "bytes allocated by " + MEASURED + " filtered reads");
    }

    private void append(CachePartition partition, int records)
    {
        for (int i = 0; i < records; i++)
        {
            final long offset = nextOffset++;
            key.putLong(0, 0x2D79656BL | (offset % 2 == 0 ? 0x3030303000000000L : 0x3130303000000000L));
            value.putLong(0, offset);
            partition.append(offset, now.get(), key, value, headers);
        }
    }

    private void read(CacheCursor cursor, long from, int records)
    {
        cursor.seek(from);
        for (int i = 0; i < records; i++)
        {
            if (!cursor.next())
            {
                throw new AssertionError("no record " + i + " from " + from);
            }
            final CacheEntry entry = cursor.entry();
            checksum += entry.offset() + entry.timestamp() + entry.key().getByte(7) + entry.value().getLong(0);
            final CacheHeaders headers = entry.headers();
            while (headers.next())
            {
                final DirectBuffer headerValue = headers.value();
                checksum += headers.name().capacity() + (headerValue != null ? headerValue.capacity() : -1);
            }
        }
    }

    private long measure(Runnable task)
    {
        final long before = threads.getCurrentThreadAllocatedBytes();
        task.run();
        return threads.getCurrentThreadAllocatedBytes() - before;
    }

    /** What measuring nothing allocates: the figures above include it, so it must be 0 for them to be 0. */
    private long allocated()
    {
        return measure(() ->
        {
        });
    }
}
