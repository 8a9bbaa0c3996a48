/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static io.zilla.bindings.kafka.cache.CacheBuffers.directorySize;
import static io.zilla.bindings.kafka.cache.CacheBuffers.headers;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Path;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retention by size while 1 GiB of values flows through 4 MiB segments kept to 16 MiB: the files in the partition's
 * directory never take more than {@link CacheConfig#partitionFootprint()}, and the head stays readable throughout.
 * The files that eviction unlinked count too while they are still mapped (Linux: {@code /proc/self/maps}), as the
 * file system frees their blocks only once they are unmapped.
 */
class CacheRetentionTest
{
    private static final long FLOW = 1L << 30;
    private static final int VALUE_SIZE = 1024;
    private static final int SAMPLE_EVERY = 4096;

    @TempDir
    Path cache;

    @Test
    void shouldStayWithinTheFootprintWhileOneGibibyteFlows() throws IOException
    {
        final CacheConfig config = CacheConfig.DEFAULTS
            .withSegmentBytes(4 << 20)
            .withSegmentIndexBytes(128 << 10)
            .withRetentionBytes(16 << 20)
            .withRetentionMs(CacheConfig.UNLIMITED);
        final long bound = config.partitionFootprint();
        final CachePartition partition = new CachePartition(cache, "flow", 0, config);
        final CacheCursor head = new CacheCursor(partition);

        final UnsafeBuffer key = new UnsafeBuffer(new byte[8]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[VALUE_SIZE]);
        final DirectBuffer headers = headers("source", "retention-test");
        final long records = FLOW / VALUE_SIZE;

        long maxDisk = 0L;
        long maxFiles = 0L;
        long maxUnlinkedMapped = 0L;
        long headBase = -1L;
        int rolls = 0;
        final long started = System.nanoTime();
        for (long offset = 0; offset < records; offset++)
        {
            key.putLong(0, offset % 1000);
            value.putLong(0, offset);
            partition.append(offset, offset, key, value, headers);

            final CacheSegment[] segments = partition.segments();
            final long base = segments[segments.length - 1].baseOffset();
            if (base != headBase || offset % SAMPLE_EVERY == 0)
            {
                if (base != headBase)
                {
                    rolls++;
                    headBase = base;
                    head.seek(base);
                    assertTrue(head.next(), "the head is readable after the roll at " + base);
                    assertEquals(base, head.entry().offset());
                    assertEquals(base, head.entry().value().getLong(0));
                }
                final long files = directorySize(partition.directory());
                final long unlinked = CacheBuffers.unlinkedMapped(partition.directory());
                assertTrue(files + unlinked <= bound, files + " bytes of files and " + unlinked + " unlinked but mapped, "
                    + "over the bound of " + bound + " at offset " + offset);
                assertTrue(partition.footprint() <= bound);
                maxDisk = Math.max(maxDisk, files + unlinked);
                maxFiles = Math.max(maxFiles, files);
                maxUnlinkedMapped = Math.max(maxUnlinkedMapped, unlinked);
            }
        }
        final long elapsed = System.nanoTime() - started;

        head.seek(records - 1);
        assertTrue(head.next());
        assertEquals(records - 1, head.entry().offset());
        assertTrue(partition.startOffset() > 0, "retention evicted the oldest segments");

        head.close();
        System.out.printf("CacheRetentionTest: %d records of %d bytes (%d MiB) in %d ms, %d rolls, %d segments left%n",
            records, VALUE_SIZE, FLOW >> 20, elapsed / 1_000_000, rolls, partition.segments().length);
        System.out.printf("CacheRetentionTest: disk max %d bytes (%.2f MiB): files %.2f MiB at most, unlinked but mapped "
            + "%.2f MiB at most; bound %d (%.2f MiB)%n", maxDisk, maxDisk / 1048576.0, maxFiles / 1048576.0,
            maxUnlinkedMapped / 1048576.0, bound, bound / 1048576.0);
    }
}
