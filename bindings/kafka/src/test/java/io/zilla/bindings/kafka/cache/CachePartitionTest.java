/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static io.zilla.bindings.kafka.cache.CacheBuffers.bytes;
import static io.zilla.bindings.kafka.cache.CacheBuffers.fileNames;
import static io.zilla.bindings.kafka.cache.CacheBuffers.headers;
import static io.zilla.bindings.kafka.cache.CacheBuffers.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A partition's segments on real files: what goes in comes back, seeks, rolls and retention by time. */
class CachePartitionTest
{
    /** Small segments: a few dozen records each, so that a test spans frozen segments and the head. */
    private static final CacheConfig SMALL = CacheConfig.DEFAULTS
        .withSegmentBytes(CacheConfig.SEGMENT_BYTES_MIN)
        .withSegmentIndexBytes(CacheConfig.SEGMENT_INDEX_BYTES_MIN);

    @TempDir
    Path cache;

    private final AtomicLong now = new AtomicLong(1_000_000L);

    @Test
    void shouldReadBackNullKeyTombstoneEmptyBytesAndHeaders()
    {
        final CachePartition partition = new CachePartition(cache, "events", 3, SMALL, now::get);
        partition.append(10, 1001, bytes("k10"), bytes("v10"), headers("type", "a", "trace", null, "type", "b"));
        partition.append(11, 1002, null, bytes("v11"), null);
        partition.append(12, 1003, bytes("k12"), null, headers("reason", "deleted"));
        partition.append(13, 1004, bytes(""), bytes(""), headers());

        assertEquals(cache.resolve("events-3"), partition.directory());
        assertEquals(13, partition.latestOffset());
        assertEquals(10, partition.startOffset());

        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(0);

        assertTrue(cursor.next());
        CacheEntry entry = cursor.entry();
        assertEquals(10, entry.offset());
        assertEquals(1001, entry.timestamp());
        assertEquals(0, entry.flags());
        assertEquals("k10", string(entry.key()));
        assertEquals("v10", string(entry.value()));
        assertEquals(3, entry.headers().count());
        assertEquals(List.of("type", "a", "trace", "null", "type", "b"), nulls(headers(entry)));
        assertFalse(cursor.gap());

        assertTrue(cursor.next());
        assertEquals(11, entry.offset());
        assertNull(entry.key());
        assertEquals("v11", string(entry.value()));
        assertEquals(0, entry.headers().count());

        assertTrue(cursor.next());
        assertEquals(12, entry.offset());
        assertEquals("k12", string(entry.key()));
        assertNull(entry.value(), "a tombstone");
        assertEquals(List.of("reason", "deleted"), headers(entry));

        assertTrue(cursor.next());
        assertEquals(13, entry.offset());
        assertEquals(0, entry.key().capacity(), "an empty key is not a null key");
        assertEquals(0, entry.value().capacity(), "an empty value is not a tombstone");

        assertFalse(cursor.next());
        assertEquals(14, cursor.nextOffset());

        partition.append(20, 1005, bytes("k20"), bytes("v20"), null);
        assertTrue(cursor.next(), "the cursor picks up what the writer appended since");
        assertEquals(20, entry.offset());
    }

    @Test
    void shouldSeekIntoFrozenSegmentsAndTheHead()
    {
        final CachePartition partition = new CachePartition(cache, "events", 0, SMALL, now::get);
        for (long offset = 0; offset < 1000; offset++)
        {
            partition.append(offset, offset, bytes("key-" + offset % 7), bytes("value-" + offset), null);
        }
        final CacheSegment[] segments = partition.segments();
        assertTrue(segments.length > 5, segments.length + " segments");
        final CacheSegment frozen = segments[2];
        final CacheSegment head = segments[segments.length - 1];
        assertTrue(frozen.frozen());
        assertFalse(head.frozen());

        final CacheCursor cursor = new CacheCursor(partition);
        final long[] targets = {
            0, frozen.baseOffset(), frozen.baseOffset() + 5, segments[3].baseOffset() - 1, head.baseOffset(),
            head.baseOffset() + 3, 999
        };
        for (long target : targets)
        {
            cursor.seek(target);
            assertTrue(cursor.next(), "seek " + target);
            assertEquals(target, cursor.entry().offset());
            assertEquals("value-" + target, string(cursor.entry().value()));
        }

        cursor.seek(frozen.baseOffset() + 5);
        long expected = frozen.baseOffset() + 5;
        while (cursor.next())
        {
            assertEquals(expected++, cursor.entry().offset(), "reads on across the segments that follow");
        }
        assertEquals(1000, expected);

        cursor.seek(5000);
        assertFalse(cursor.next(), "beyond the latest");
        partition.append(1000, 1000, null, bytes("value-1000"), null);
        assertFalse(cursor.next(), "still below the offset sought");
        partition.append(5000, 5000, null, bytes("value-5000"), null);
        assertTrue(cursor.next());
        assertEquals(5000, cursor.entry().offset());
    }

    @Test
    void shouldSeekOverOffsetGaps()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0, SMALL, now::get);
        final List<Long> offsets = new ArrayList<>();
        long offset = 3;
        for (int i = 0; i < 400; i++)
        {
            offsets.add(offset);
            partition.append(offset, i, bytes("key"), bytes("value-" + offset), null);
            offset += 1 + i % 5 * 3;
        }
        assertTrue(partition.segments().length > 2);

        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(0);
        final List<Long> read = new ArrayList<>();
        while (cursor.next())
        {
            read.add(cursor.entry().offset());
            assertFalse(cursor.gap(), "offsets that Kafka skipped are no gap");
        }
        assertEquals(offsets, read);

        for (int i = 1; i < offsets.size(); i++)
        {
            final long missing = offsets.get(i - 1) + 1;
            cursor.seek(missing);
            assertTrue(cursor.next());
            assertEquals(offsets.get(i), cursor.entry().offset(), "seek " + missing);
        }
    }

    @Test
    void shouldRollBySize()
    {
        final CachePartition partition = new CachePartition(cache, "events", 0, SMALL, now::get);
        final UnsafeBuffer value = new UnsafeBuffer(new byte[100]);
        // 24 bytes of offset, timestamp, flags, length; 4 + 3 of key; 4 + 100 of value; 4 of headers; 5 of padding
        final int entrySize = CacheEntry.sizeOf(3, 100, 4);
        assertEquals(144, entrySize);
        final int perSegment = CacheConfig.SEGMENT_BYTES_MIN / entrySize;
        for (long offset = 0; offset < 3L * perSegment + 1; offset++)
        {
            partition.append(offset, offset, bytes("key"), value, null);
        }

        final CacheSegment[] segments = partition.segments();
        assertEquals(4, segments.length);
        for (int i = 0; i < segments.length; i++)
        {
            assertEquals((long) i * perSegment, segments[i].baseOffset());
            assertEquals(i < 3, segments[i].frozen());
        }
        assertEquals(List.of(
            "0000000000000000000.hindex", "0000000000000000000.index", "0000000000000000000.log",
            "0000000000000000028.hindex", "0000000000000000028.index", "0000000000000000028.log",
            "0000000000000000056.hindex", "0000000000000000056.index", "0000000000000000056.log",
            "0000000000000000084.hscan", "0000000000000000084.index", "0000000000000000084.log"),
            fileNames(partition.directory()));
    }

    @Test
    void shouldRollByTime()
    {
        final CachePartition partition = new CachePartition(cache, "events", 0,
            CacheConfig.DEFAULTS.withSegmentMs(60_000), now::get);
        partition.append(0, 0, null, bytes("a"), null);
        now.addAndGet(59_999);
        partition.append(1, 0, null, bytes("b"), null);
        assertEquals(1, partition.segments().length, "not yet 60 s old");

        now.addAndGet(1);
        partition.append(7, 0, null, bytes("c"), null);
        assertEquals(2, partition.segments().length);
        assertEquals(7, partition.segments()[1].baseOffset(), "the new head starts at the record that rolled it");
        assertTrue(partition.segments()[0].frozen());

        now.addAndGet(59_999);
        partition.append(8, 0, null, bytes("d"), null);
        assertEquals(2, partition.segments().length, "the new head counts its age from its own creation");
    }

    @Test
    void shouldEvictByTimeButNeverTheHead()
    {
        final CachePartition partition = new CachePartition(cache, "events", 0,
            CacheConfig.DEFAULTS.withSegmentMs(1_000).withRetentionMs(10_000), now::get);
        // one segment per second, each record stamped with the clock
        for (long offset = 0; offset < 5; offset++)
        {
            partition.append(offset, now.get(), null, bytes("value"), null);
            now.addAndGet(1_000);
        }
        assertEquals(5, partition.segments().length);

        now.set(1_000_000L + 11_500);
        assertEquals(2, partition.evict(), "records stamped 0 s and 1 s are more than 10 s old");
        assertEquals(2, partition.startOffset());
        assertEquals(List.of(
            "0000000000000000002.hindex", "0000000000000000002.index", "0000000000000000002.log",
            "0000000000000000003.hindex", "0000000000000000003.index", "0000000000000000003.log",
            "0000000000000000004.hscan", "0000000000000000004.index", "0000000000000000004.log"),
            fileNames(partition.directory()));

        now.addAndGet(1_000_000);
        assertEquals(2, partition.evict());
        assertEquals(1, partition.segments().length, "the head stays, however old");
        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(4);
        assertTrue(cursor.next());
        assertEquals(4, cursor.entry().offset());
    }

    @Test
    void shouldReportTheGapWhenTheCursorsSegmentIsEvicted()
    {
        final CacheConfig config = SMALL.withRetentionBytes(2 * SMALL.segmentFootprint());
        final CachePartition partition = new CachePartition(cache, "events", 0, config, now::get);
        for (long offset = 0; offset < 10; offset++)
        {
            partition.append(offset, offset, null, bytes("value-" + offset), null);
        }
        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(0);
        assertTrue(cursor.next());
        assertEquals(0, cursor.entry().offset());

        final UnsafeBuffer value = new UnsafeBuffer(new byte[500]);
        long offset = 10;
        while (partition.startOffset() == 0)
        {
            partition.append(offset++, offset, null, value, null);
        }

        assertTrue(cursor.next());
        assertEquals(partition.startOffset(), cursor.entry().offset(), "on to the oldest segment left");
        assertTrue(cursor.gap());
        assertTrue(cursor.next());
        assertFalse(cursor.gap());

        cursor.seek(0);
        assertTrue(cursor.next());
        assertEquals(partition.startOffset(), cursor.entry().offset());
        assertTrue(cursor.gap(), "sought below what the cache still holds");

        cursor.seek(partition.startOffset() + 1);
        assertTrue(cursor.next());
        assertFalse(cursor.gap());
    }

    @Test
    void shouldKeepAnEvictedSegmentMappedWhileACursorPinsIt()
    {
        final CacheConfig config = SMALL.withRetentionBytes(2 * SMALL.segmentFootprint());
        final CachePartition partition = new CachePartition(cache, "events", 0, config, now::get);
        partition.append(0, 0, bytes("first"), bytes("value-0"), null);
        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(0);
        assertTrue(cursor.next());

        final UnsafeBuffer value = new UnsafeBuffer(new byte[500]);
        long offset = 1;
        while (partition.startOffset() == 0)
        {
            partition.append(offset++, 0, null, value, null);
        }
        assertFalse(fileNames(partition.directory()).contains("0000000000000000000.log"), "unlinked");
        assertEquals("first", string(cursor.entry().key()), "still mapped: the cursor has not moved");
        assertEquals("value-0", string(cursor.entry().value()));
        final long pinned = partition.footprint();
        assertTrue(pinned > CacheBuffers.directorySize(partition.directory()), "the pinned files still count");

        assertTrue(cursor.next());
        assertTrue(cursor.gap());
        partition.evict();
        assertEquals(CacheBuffers.directorySize(partition.directory()), partition.footprint(),
            "unmapped once the cursor moved on");

        cursor.close();
        assertEquals(0, partition.evict());
    }

    @Test
    void shouldRefuseWhatItCannotKeep()
    {
        final CachePartition partition = new CachePartition(cache, "events", 0, SMALL, now::get);
        partition.append(5, 0, null, bytes("a"), null);

        assertThrows(IllegalArgumentException.class, () -> partition.append(5, 0, null, bytes("b"), null));
        assertThrows(IllegalArgumentException.class, () -> partition.append(4, 0, null, bytes("b"), null));
        assertThrows(IllegalArgumentException.class,
            () -> partition.append(6, 0, null, new UnsafeBuffer(new byte[CacheConfig.SEGMENT_BYTES_MIN]), null));
        final UnsafeBuffer malformed = new UnsafeBuffer(new byte[12]);
        malformed.putInt(0, 1);
        malformed.putInt(4, 100);
        assertThrows(IllegalArgumentException.class, () -> partition.append(6, 0, null, bytes("b"), malformed));
        assertEquals(5, partition.latestOffset(), "nothing was appended");
    }

    @Test
    void shouldRollWhenTheOffsetNoLongerFitsTheIndex()
    {
        final CachePartition partition = new CachePartition(cache, "events", 0, SMALL, now::get);
        partition.append(0, 0, null, bytes("a"), null);
        partition.append(Integer.MAX_VALUE, 0, null, bytes("b"), null);
        partition.append(Integer.MAX_VALUE + 1L, 0, null, bytes("c"), null);
        assertEquals(2, partition.segments().length);

        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(1);
        assertTrue(cursor.next());
        assertEquals(Integer.MAX_VALUE, cursor.entry().offset());
        assertTrue(cursor.next());
        assertEquals(Integer.MAX_VALUE + 1L, cursor.entry().offset());
    }

    @Test
    void shouldStartFromAnEmptyDirectoryAndDeleteIt()
    {
        final CachePartition before = new CachePartition(cache, "events", 0, SMALL, now::get);
        before.append(0, 0, null, bytes("a"), null);
        final CachePartition after = new CachePartition(cache, "events", 0, SMALL, now::get);
        assertEquals(List.of(), fileNames(after.directory()), "a restart rebuilds from Kafka");
        assertEquals(-1, after.latestOffset());

        after.append(1, 0, null, bytes("b"), null);
        after.delete();
        assertFalse(after.directory().toFile().exists());
    }

    private static List<String> nulls(List<String> values)
    {
        final List<String> result = new ArrayList<>();
        values.forEach(v -> result.add(String.valueOf(v)));
        return result;
    }
}
