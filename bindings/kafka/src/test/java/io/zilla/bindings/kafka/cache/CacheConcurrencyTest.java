/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static io.zilla.bindings.kafka.cache.CacheBuffers.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
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
 * the readers, they never read a torn or unmapped entry, and whatever they skip is reported as a gap; with the cleaner
 * rewriting segments under the readers of a compacted partition, they never read a torn or unmapped entry, never go
 * back, never see a gap, and never miss the latest record of a key.
 */
class CacheConcurrencyTest
{
    private static final int RECORDS = 200_000;
    private static final int KEYS = 50;
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

    @Test
    void shouldLetReadersFollowWhileTheCleanerCompacts() throws Exception
    {
        final CacheConfig config = SMALL.withCleanupPolicy(CacheConfig.CleanupPolicy.COMPACT);
        final CachePartition partition = new CachePartition(cache, "compacted", 0, config);
        final Random random = new Random(7);
        final int[] keyOf = new int[RECORDS];
        final long[] offsets = new long[RECORDS];
        final int[] latest = new int[KEYS];
        Arrays.fill(latest, -1);
        for (int i = 0; i < RECORDS; i++)
        {
            keyOf[i] = random.nextInt(KEYS);
            offsets[i] = offsetOf(i);
            latest[keyOf[i]] = i;
        }
        final int[][] seen = new int[3][];
        final int[] rounds = new int[1];

        run(thread("writer", () -> writeKeyed(partition, keyOf)),
            thread("follower", () -> seen[0] = followKeyed(partition, keyOf, null, 0)),
            thread("laggard", () -> seen[1] = followKeyed(partition, keyOf, null, 1)),
            thread("filtered", () -> seen[2] = followKeyed(partition, keyOf, 7, 0)),
            thread("restarter", () -> rounds[0] = restart(partition, keyOf, offsets)));

        assertArrayEquals(latest, seen[0], "the follower saw the latest record of every key");
        assertArrayEquals(latest, seen[1], "so did the laggard");
        assertEquals(latest[7], seen[2][7], "and the filtered reader, of its key");
        assertTrue(partition.compactions() > 100, partition.compactions() + " passes");
        assertTrue(partition.segments().length < 10, partition.segments().length + " segments");
        partition.evict();
        assertEquals(CacheBuffers.directorySize(partition.directory()), partition.footprint(), "nothing pinned");
        System.out.printf("CacheConcurrencyTest: %d passes of the cleaner, %d rounds from the start, %d segments left%n",
            partition.compactions(), rounds[0], partition.segments().length);
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

    /** Keyed records over {@link #KEYS} keys, one in 23 a tombstone whose one header carries its record number. */
    private void writeKeyed(CachePartition partition, int[] keyOf)
    {
        final UnsafeBuffer key = new UnsafeBuffer(new byte[3]);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[300]);
        final UnsafeBuffer sized = new UnsafeBuffer(value, 0, 0);
        final UnsafeBuffer name = new UnsafeBuffer(new byte[] {'i'});
        final UnsafeBuffer number = new UnsafeBuffer(new byte[4]);
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[64]);
        final CacheHeadersBuilder builder = new CacheHeadersBuilder();
        final UnsafeBuffer headers = new UnsafeBuffer(encoded, 0, 0);
        for (int i = 0; i < RECORDS; i++)
        {
            final long offset = offsetOf(i);
            key.putByte(0, (byte) 'k');
            key.putByte(1, (byte) ('0' + keyOf[i] / 10));
            key.putByte(2, (byte) ('0' + keyOf[i] % 10));
            if (i % 23 == 0)
            {
                number.putInt(0, i);
                builder.wrap(encoded, 0).header(name, number);
                headers.wrap(encoded, 0, builder.length());
                partition.append(offset, offset, key, null, headers);
            }
            else
            {
                value.putLong(0, offset);
                value.putInt(8, i);
                value.setMemory(12, 288, (byte) offset);
                sized.wrap(value, 0, valueLength(i));
                partition.append(offset, offset, key, sized, null);
            }
            if (i % 1000 == 0)
            {
                Thread.yield();
            }
        }
        written.set(true);
    }

    /** The keyed entry is whole: its offset, its record number, its key and its bytes agree with what was written. */
    private static int checkKeyed(CacheEntry entry, int[] keyOf)
    {
        final DirectBuffer value = entry.value();
        final int i;
        if (value != null)
        {
            i = value.getInt(8);
            assertEquals(entry.offset(), value.getLong(0));
            assertEquals(valueLength(i), value.capacity());
            assertEquals((byte) entry.offset(), value.getByte(value.capacity() - 1));
        }
        else
        {
            final CacheHeaders headers = entry.headers();
            assertEquals(1, headers.count());
            assertTrue(headers.next());
            i = headers.value().getInt(0);
            assertEquals(0, i % 23, "a tombstone");
        }
        assertEquals(offsetOf(i), entry.offset());
        assertEquals(entry.offset(), entry.timestamp());
        final DirectBuffer key = entry.key();
        assertEquals(3, key.capacity());
        assertEquals(keyOf[i], (key.getByte(1) - '0') * 10 + key.getByte(2) - '0');
        return i;
    }

    /**
     * Follows to the last record (only the key {@code filtered} if not null), pausing {@code pause} milliseconds every
     * 50 records; returns, per key, the last record seen.
     */
    private int[] followKeyed(CachePartition partition, int[] keyOf, Integer filtered, int pause)
    {
        final int[] seen = new int[KEYS];
        Arrays.fill(seen, -1);
        final CacheFilter filter = filtered != null ? new CacheFilter().key(bytes(String.format("k%02d", filtered))) : null;
        final int last = filtered != null ? lastOf(keyOf, filtered) : RECORDS - 1;
        try (CacheCursor cursor = new CacheCursor(partition).filter(filter))
        {
            cursor.seek(0);
            int previous = -1;
            int read = 0;
            while (previous < last)
            {
                if (cursor.next())
                {
                    final int i = checkKeyed(cursor.entry(), keyOf);
                    assertTrue(i > previous, "record " + i + " after " + previous);
                    assertFalse(cursor.gap(), "compaction is no gap");
                    assertTrue(filtered == null || keyOf[i] == filtered);
                    seen[keyOf[i]] = i;
                    previous = i;
                    if (pause > 0 && ++read % 50 == 0)
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
        return seen;
    }

    /**
     * From the start, again and again until the writer is done: each round takes the latest record of each key when it
     * starts, and reads on until it has met, for each key, that record or a later one with the same key (the cleaner
     * may drop it only once a later one exists, which the cursor then reaches).
     */
    private int restart(CachePartition partition, int[] keyOf, long[] offsets)
    {
        int rounds = 0;
        final int[] required = new int[KEYS];
        try (CacheCursor cursor = new CacheCursor(partition))
        {
            while (!written.get())
            {
                final long latest = partition.latestOffset();
                Arrays.fill(required, -1);
                int missing = 0;
                for (int i = latest >= 0 ? Arrays.binarySearch(offsets, latest) : -1; i >= 0 && missing < KEYS; i--)
                {
                    if (required[keyOf[i]] == -1)
                    {
                        required[keyOf[i]] = i;
                        missing++;
                    }
                }
                cursor.seek(0);
                int previous = -1;
                while (missing > 0)
                {
                    if (cursor.next())
                    {
                        final int i = checkKeyed(cursor.entry(), keyOf);
                        assertTrue(i > previous, "record " + i + " after " + previous);
                        assertFalse(cursor.gap(), "compaction is no gap");
                        final int key = keyOf[i];
                        if (required[key] != -1 && i >= required[key])
                        {
                            required[key] = -1;
                            missing--;
                        }
                        previous = i;
                    }
                    else
                    {
                        assertFalse(written.get() && partition.latestOffset() == offsetOf(RECORDS - 1)
                            && cursor.nextOffset() > offsetOf(RECORDS - 1), () -> "at the end, " + missing(required)
                            + " missing the latest record they had at offset " + latest);
                        awaitWriter();
                    }
                }
                rounds += previous >= 0 ? 1 : 0;
                sleep(1);
            }
        }
        return rounds;
    }

    private static String missing(int[] required)
    {
        final StringBuilder keys = new StringBuilder();
        for (int key = 0; key < required.length; key++)
        {
            if (required[key] != -1)
            {
                keys.append(" k").append(key).append(" (record ").append(required[key]).append(')');
            }
        }
        return keys.toString();
    }

    private static int lastOf(int[] keyOf, int key)
    {
        int last = keyOf.length - 1;
        while (keyOf[last] != key)
        {
            last--;
        }
        return last;
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
