/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static io.zilla.bindings.kafka.cache.CacheBuffers.directorySize;
import static io.zilla.bindings.kafka.cache.CacheBuffers.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import io.zilla.bindings.kafka.cache.CacheConfig.CleanupPolicy;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A compacted partition with no retention stays small however long it runs: {@value #KEYS} keys overwritten
 * {@value #RECORDS} times in all, in random order, through 64 KiB segments, while a cursor follows. At every roll
 * the files in the partition's directory, with those unlinked but still mapped (Linux: {@code /proc/self/maps}), stay
 * within {@link CacheConfig#compactedFootprint(long)} of what one record per key takes; at the end a cursor from the
 * start reads exactly the latest record of each key.
 */
class CacheCompactionFootprintTest
{
    private static final int KEYS = 200;
    private static final int RECORDS = 2_000_000;
    private static final int VALUE_SIZE = 100;
    private static final long SEGMENT_MS = 3_600_000L;

    @TempDir
    Path cache;

    @Test
    void shouldStayNearWhatTheLatestRecordsTake() throws IOException
    {
        final CacheConfig config = CacheConfig.DEFAULTS
            .withSegmentBytes(64 << 10)
            .withSegmentIndexBytes(8 << 10)
            .withSegmentMs(SEGMENT_MS)
            .withCleanupPolicy(CleanupPolicy.COMPACT);
        final AtomicLong now = new AtomicLong();
        final CachePartition partition = new CachePartition(cache, "compacted", 0, config, now::get);
        final CacheCursor follower = new CacheCursor(partition);
        follower.seek(0);

        final UnsafeBuffer key = new UnsafeBuffer(new byte[7]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_SIZE]);
        final DirectBuffer headers = headers("source", "footprint");
        // one record per key, as a compacted segment holds it: the entry, 8 bytes of index, 8 of hash index per hash
        final int entry = CacheEntry.sizeOf(key.capacity(), VALUE_SIZE, headers.capacity());
        final long latest = (long) KEYS * (entry + CacheIndexEntries.SIZE + 2 * CacheIndexEntries.SIZE);
        final long bound = config.compactedFootprint(latest);

        final Random random = new Random(11);
        final long[] latestOffsets = new long[KEYS];
        Arrays.fill(latestOffsets, -1);
        long maxDisk = 0L;
        long maxFootprint = 0L;
        long rollNanos = 0L;
        long followed = 0L;
        long lastFollowed = -1L;
        int rolls = 0;
        long headBase = 0L;
        final long started = System.nanoTime();
        for (long offset = 0; offset < RECORDS; offset++)
        {
            final int k = random.nextInt(KEYS);
            key.putStringWithoutLengthAscii(0, "key-");
            key.putByte(4, (byte) ('0' + k / 100));
            key.putByte(5, (byte) ('0' + k / 10 % 10));
            key.putByte(6, (byte) ('0' + k % 10));
            value.putLong(0, offset);
            value.putInt(8, k);
            final long before = System.nanoTime();
            partition.append(offset, offset, key, value, headers);
            latestOffsets[k] = offset;

            final CacheSegment[] segments = partition.segments();
            if (segments[segments.length - 1].baseOffset() != headBase)
            {
                rollNanos += System.nanoTime() - before;
                headBase = segments[segments.length - 1].baseOffset();
                rolls++;
                final long files = directorySize(partition.directory());
                final long unlinked = rolls % 16 == 0 ? CacheBuffers.unlinkedMapped(partition.directory()) : 0L;
                final long footprint = partition.footprint();
                assertTrue(files + unlinked <= bound && footprint <= bound, files + " bytes of files and " + unlinked
                    + " unlinked but mapped, " + footprint + " counted, over the bound of " + bound + " at " + offset);
                maxDisk = Math.max(maxDisk, files + unlinked);
                maxFootprint = Math.max(maxFootprint, footprint);

                // the follower reads what there is, whole, in order, with no gap
                while (follower.next())
                {
                    final CacheEntry read = follower.entry();
                    assertTrue(read.offset() > lastFollowed);
                    assertFalse(follower.gap());
                    assertEquals(read.offset(), read.value().getLong(0));
                    lastFollowed = read.offset();
                    followed++;
                }
            }
        }
        final long elapsed = System.nanoTime() - started;
        follower.close();

        now.addAndGet(SEGMENT_MS);
        key.putStringWithoutLengthAscii(0, "key-end");
        partition.append(RECORDS, RECORDS, key, value, headers);
        int keys = 0;
        try (CacheCursor cursor = new CacheCursor(partition))
        {
            cursor.seek(0);
            while (cursor.next() && cursor.entry().offset() < RECORDS)
            {
                final int k = cursor.entry().value().getInt(8);
                assertEquals(latestOffsets[k], cursor.entry().offset(), "the latest record of key " + k);
                assertFalse(cursor.gap());
                keys++;
            }
        }
        assertEquals(KEYS, keys);

        System.out.printf("CacheCompactionFootprintTest: %d records over %d keys in %d ms, %d rolls, %d passes, %.1f us "
            + "per roll with its pass; %d records followed; %d segments left%n", RECORDS, KEYS, elapsed / 1_000_000,
            rolls, partition.compactions(), rollNanos / 1000.0 / rolls, followed, partition.segments().length);
        System.out.printf("CacheCompactionFootprintTest: disk max %d bytes, footprint max %d; the latest records take "
            + "%d; segment %d; bound %d%n", maxDisk, maxFootprint, latest, config.segmentFootprint(), bound);
    }
}
