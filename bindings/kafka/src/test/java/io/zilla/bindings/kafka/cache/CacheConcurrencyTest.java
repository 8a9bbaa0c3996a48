/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static io.zilla.bindings.kafka.cache.CacheBuffers.bytes;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One writer thread appends while reader threads follow it, across hundreds of rolls: without retention, each reader
 * sees every offset it should, in order, exactly once, with the bytes the writer wrote; with retention evicting under
 * the readers, they never read a torn or unmapped entry, and whatever they skip is reported as a gap.
 */
class CacheConcurrencyTest
{
    private static final int RECORDS = 200_000;
    private static final long TIMEOUT_SECONDS = 120;
    private static final CacheConfig SMALL = CacheConfig.DEFAULTS
        .withSegmentBytes(64 << 10)
        .withSegmentIndexBytes(CacheConfig.SEGMENT_INDEX_BYTES_MIN)
        .withRetentionMs(CacheConfig.UNLIMITED);

    @TempDir
    Path cache;

    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final AtomicBoolean written = new AtomicBoolean();

    @Test
    void shouldLetReadersFollowTheWriter() throws Exception
    {
        final CachePartition partition = new CachePartition(cache, "events", 0, SMALL);

        run(thread("writer", () -> write(partition)),
            thread("all", () -> readAll(partition)),
            thread("filtered", () -> readFiltered(partition)));

        assertTrue(partition.segments().length > 100, partition.segments().length + " segments");
    }

    @Test
    void shouldLetReadersFollowWhileRetentionEvicts() throws Exception
    {
        final CacheConfig config = SMALL.withRetentionBytes(4 * SMALL.segmentFootprint());
        final CachePartition partition = new CachePartition(cache, "events", 0, config);
        final long[] gaps = new long[2];

        run(thread("writer", () -> write(partition)),
            thread("follower", () -> gaps[0] = follow(partition, 0)),
            thread("laggard", () -> gaps[1] = follow(partition, 1)),
            thread("seeker", () -> seek(partition)));

        assertTrue(partition.startOffset() > 0, "retention evicted");
        assertTrue(gaps[1] > 0, "the laggard fell behind retention");
        partition.evict();
        assertTrue(partition.footprint() <= config.partitionFootprint(), "with the cursors closed, nothing pinned");
        System.out.printf("CacheConcurrencyTest: gaps seen by the follower %d, by the laggard %d%n", gaps[0], gaps[1]);
    }

    /** Offsets with gaps, as a compacted topic has them. */
    private static long offsetOf(int i)
    {
        return i + i / 3;
    }

    private static int valueLength(int i)
    {
        return 13 + i % 288;
    }

    private void write(CachePartition partition)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[2]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[300]);
        final UnsafeBuffer sized = new UnsafeBuffer(value, 0, 0);
        for (int i = 0; i < RECORDS; i++)
        {
            final long offset = offsetOf(i);
            key.putByte(0, (byte) 'k');
            key.putByte(1, (byte) ('0' + i % 4));
            value.putLong(0, offset);
            value.putInt(8, i);
            value.setMemory(12, 288, (byte) offset);
            sized.wrap(value, 0, valueLength(i));
            partition.append(offset, offset, key, sized, null);
            if (i % 1000 == 0)
            {
                Thread.yield();
            }
        }
        written.set(true);
    }

    /** The entry is whole: its offset, its record number and its bytes agree with what the writer wrote. */
    private static int check(CacheEntry entry)
    {
        final DirectBuffer value = entry.value();
        final int i = value.getInt(8);
        assertEquals(offsetOf(i), entry.offset());
        assertEquals(entry.offset(), entry.timestamp());
        assertEquals(entry.offset(), value.getLong(0));
        assertEquals(valueLength(i), value.capacity());
        assertEquals((byte) entry.offset(), value.getByte(value.capacity() - 1));
        assertEquals((byte) ('0' + i % 4), entry.key().getByte(1));
        return i;
    }

    private void readAll(CachePartition partition)
    {
        try (CacheCursor cursor = new CacheCursor(partition))
        {
            cursor.seek(0);
            int i = 0;
            while (i < RECORDS)
            {
                if (cursor.next())
                {
                    assertEquals(i, check(cursor.entry()), "every record, in order, once");
                    assertFalse(cursor.gap());
                    i++;
                }
                else
                {
                    awaitWriter();
                }
            }
            assertFalse(cursor.next(), "nothing more than what was written");
        }
    }

    private void readFiltered(CachePartition partition)
    {
        try (CacheCursor cursor = new CacheCursor(partition).filter(new CacheFilter().key(bytes("k2"))))
        {
            cursor.seek(0);
            int i = 2;
            while (i < RECORDS)
            {
                if (cursor.next())
                {
                    assertEquals(i, check(cursor.entry()), "every record with key k2, in order, once");
                    i += 4;
                }
                else
                {
                    awaitWriter();
                }
            }
        }
    }

    /** Follows to the last record, pausing a millisecond every {@code 1000 / pause} records; returns the gaps seen. */
    private long follow(CachePartition partition, int pause)
    {
        long gaps = 0;
        try (CacheCursor cursor = new CacheCursor(partition))
        {
            cursor.seek(0);
            int last = -1;
            while (last < RECORDS - 1)
            {
                if (cursor.next())
                {
                    final int i = check(cursor.entry());
                    assertTrue(i == last + 1 || cursor.gap() && i > last, "record " + i + " after " + last);
                    gaps += cursor.gap() ? 1 : 0;
                    last = i;
                    if (pause > 0 && i % 1000 == 0)
                    {
                        sleep(pause);
                    }
                }
                else
                {
                    awaitWriter();
                }
            }
        }
        return gaps;
    }

    /** Seeks anywhere between the oldest and the latest and reads a few records there, until the writer is done. */
    private void seek(CachePartition partition)
    {
        try (CacheCursor cursor = new CacheCursor(partition))
        {
            while (!written.get())
            {
                final long start = Math.max(partition.startOffset(), 0);
                final long latest = partition.latestOffset();
                final long offset = latest > start ? ThreadLocalRandom.current().nextLong(start, latest + 1) : 0;
                cursor.seek(offset);
                for (int read = 0; read < 50 && cursor.next(); read++)
                {
                    check(cursor.entry());
                    assertTrue(cursor.entry().offset() >= offset);
                }
                awaitWriter();
            }
        }
    }

    private void run(Thread writer, Thread... readers) throws InterruptedException
    {
        for (Thread reader : readers)
        {
            reader.start();
        }
        writer.start();
        writer.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        for (Thread reader : readers)
        {
            reader.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        }
        assertNull(failure.get(), () -> String.valueOf(failure.get()));
        assertFalse(writer.isAlive(), "the writer did not finish in " + TIMEOUT_SECONDS + " s");
        for (Thread reader : readers)
        {
            assertFalse(reader.isAlive(), reader.getName() + " did not finish in " + TIMEOUT_SECONDS + " s");
        }
    }

    private void awaitWriter()
    {
        if (failure.get() != null)
        {
            throw new IllegalStateException("another thread failed");
        }
        Thread.onSpinWait();
    }

    private static void sleep(long millis)
    {
        try
        {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex)
        {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    private Thread thread(String name, Runnable task)
    {
        final Thread thread = new Thread(() ->
        {
            try
            {
                task.run();
            }
            catch (Throwable ex)
            {
                failure.compareAndSet(null, ex);
            }
        }, name);
        thread.setDaemon(true);
        return thread;
    }
}
