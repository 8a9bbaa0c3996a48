/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static io.zilla.bindings.kafka.cache.CacheBuffers.bytes;
import static io.zilla.bindings.kafka.cache.CacheBuffers.collidingKeys;
import static io.zilla.bindings.kafka.cache.CacheBuffers.directorySize;
import static io.zilla.bindings.kafka.cache.CacheBuffers.fileNames;
import static io.zilla.bindings.kafka.cache.CacheBuffers.headers;
import static io.zilla.bindings.kafka.cache.CacheBuffers.string;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import io.zilla.bindings.kafka.cache.CacheConfig.CleanupPolicy;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction on real files: the latest record of each key stays, bytes exact and in offset order, with no gap;
 * tombstones until {@code delete.retention.ms}; null keys kept; cursors inside segments that the cleaner rewrites,
 * merges or empties go on without a duplicate, a miss or a gap; {@code compact} alone retains by neither time nor
 * size, {@code compact,delete} does both; the cleaner waits for {@code min.cleanable.dirty.ratio}.
 */
class CacheCompactionTest
{
    private static final long SEGMENT_MS = 60_000L;

    /** Small segments (28 entries of 144 bytes fill a log), and a pass at every roll. */
    private static final CacheConfig COMPACT = CacheConfig.DEFAULTS
        .withSegmentBytes(CacheConfig.SEGMENT_BYTES_MIN)
        .withSegmentIndexBytes(CacheConfig.SEGMENT_INDEX_BYTES_MIN)
        .withSegmentMs(SEGMENT_MS)
        .withCleanupPolicy(CleanupPolicy.COMPACT)
        .withMinCleanableDirtyRatio(0.0);

    /** A 3-byte key and a 100-byte value make a 144-byte entry: 28 fill a 4 KiB log. */
    private static final int PER_SEGMENT = CacheConfig.SEGMENT_BYTES_MIN / CacheEntry.sizeOf(3, 100, 4);

    @TempDir
    Path cache;

    private final AtomicLong now = new AtomicLong(1_000_000L);
    private final Map<Long, Written> written = new TreeMap<>();

    /** A record as appended, or as a cursor read it back. */
    record Written(long offset, long timestamp, String key, String value, List<String> headers)
    {
    }

    @Test
    void shouldKeepTheLatestRecordPerKey()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0, COMPACT, now::get);
        final Random random = new Random(42);
        long offset = 0;
        for (int i = 0; i < 3000; i++)
        {
            final String key = "key-" + random.nextInt(60);
            final String value = "value-" + offset + "-" + "x".repeat(random.nextInt(80));
            if (i % 5 == 0)
            {
                append(partition, offset, key, value, "n", Long.toString(offset), "empty", null);
            }
            else
            {
                append(partition, offset, key, value);
            }
            offset += 1 + random.nextInt(3);
        }
        now.addAndGet(SEGMENT_MS);
        append(partition, offset, "last", "the head, after a roll by time");

        final List<Written> expected = latest();
        assertEquals(61, expected.size());
        assertTrue(partition.compactions() > 50, partition.compactions() + " passes, one per roll");
        assertEquals(expected, read(partition, 0), "the latest record of each key, in offset order, bytes exact");

        // the frozen segments: compacted, each sized to what it holds, and no two neighbours that would fit as one
        final CacheSegment[] segments = partition.segments();
        final List<String> files = new ArrayList<>();
        long logBytes = 0;
        for (int i = 0; i < segments.length - 1; i++)
        {
            final CacheSegment segment = segments[i];
            assertTrue(segment.compacted());
            assertEquals(segment.log().limit(), segment.log().capacity(), "trimmed");
            logBytes += segment.log().limit();
            if (i > 0)
            {
                assertTrue(segments[i - 1].log().limit() + segment.log().limit() > COMPACT.segmentBytes(), "merged");
            }
            final String base = String.format("%019d", segment.baseOffset());
            files.addAll(List.of(base + ".hindex", base + ".index", base + ".log"));
        }
        final String head = String.format("%019d", segments[segments.length - 1].baseOffset());
        files.addAll(List.of(head + ".hscan", head + ".index", head + ".log"));
        assertEquals(files.stream().sorted().toList(), fileNames(partition.directory()), "nothing left .cleaned");
        assertEquals(expected.stream().filter(w -> !"last".equals(w.key())).mapToLong(this::entrySize).sum(), logBytes);
        assertTrue(segments.length <= 5, segments.length + " segments");
        assertEquals(directorySize(partition.directory()), partition.footprint(), "no cursor pins a retired segment");

        // filtered by key: only its latest record, through the rebuilt .hindex
        final Written key7 = expected.stream().filter(w -> "key-7".equals(w.key())).findFirst().orElseThrow();
        try (CacheCursor filtered = new CacheCursor(partition).filter(new CacheFilter().key(bytes("key-7"))))
        {
            filtered.seek(0);
            assertTrue(filtered.next());
            assertEquals(key7, written(filtered.entry()));
            assertFalse(filtered.next());
        }

        // a seek to an offset compacted away lands on the next record kept, with no gap
        try (CacheCursor cursor = new CacheCursor(partition))
        {
            for (long sought = 0; sought <= offset; sought += 7)
            {
                final long target = sought;
                final Written next = expected.stream().filter(w -> w.offset() >= target).findFirst().orElseThrow();
                cursor.seek(sought);
                assertTrue(cursor.next());
                assertEquals(next.offset(), cursor.entry().offset(), "seek " + sought);
                assertFalse(cursor.gap());
            }
        }
    }

    @Test
    void shouldDeliverATombstoneUntilDeleteRetentionMs()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0,
            COMPACT.withDeleteRetentionMs(10_000), now::get);
        append(partition, 0, "a", "a0");
        append(partition, 1, "b", "b1");
        append(partition, 2, "a", null, "reason", "deleted");
        append(partition, 3, "b", "b3");
        append(partition, 4, "c", null);
        append(partition, 5, "c", "c5");
        now.addAndGet(SEGMENT_MS);
        final long frozenAt = now.get();
        append(partition, 6, "d", "d6");

        final List<Written> withTombstone = List.of(written.get(2L), written.get(3L), written.get(5L), written.get(6L));
        final List<Written> read = read(partition, 0);
        assertEquals(withTombstone, read, "a's older value gone, c's tombstone superseded by c5");
        assertNull(read.get(0).value(), "a's tombstone, a null value");

        now.set(frozenAt + 10_000);
        partition.evict();
        assertEquals(withTombstone, read(partition, 0), "not older than delete.retention.ms yet");

        // b again, in the head: the pass reads the head's keys too, so b3 goes with the tombstone
        append(partition, 7, "b", "b7");
        final int compactions = partition.compactions();
        now.set(frozenAt + 10_001);
        partition.evict();
        assertEquals(compactions + 1, partition.compactions(), "evict() ran the cleaner: a tombstone expired");
        assertEquals(List.of(written.get(5L), written.get(6L), written.get(7L)), read(partition, 0));
        partition.evict();
        assertEquals(compactions + 1, partition.compactions(), "nothing more to do");

        // the head is never rewritten: a tombstone there stays, however old, and so does what it supersedes there
        append(partition, 8, "d", null);
        now.addAndGet(1_000_000);
        partition.evict();
        assertEquals(List.of(written.get(5L), written.get(6L), written.get(7L), written.get(8L)), read(partition, 0));
    }

    @Test
    void shouldGoOnWhenTheCursorsSegmentIsEmptiedByAnExpiredTombstone()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0,
            COMPACT.withDeleteRetentionMs(10_000), now::get);
        append(partition, 0, "x", "x0");
        append(partition, 1, "x", null);
        now.addAndGet(SEGMENT_MS);
        final long frozenAt = now.get();
        append(partition, 2, "y", "y2");

        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(0);
        assertTrue(cursor.next());
        assertEquals(written.get(1L), written(cursor.entry()), "the tombstone, all that is left of the first segment");

        now.set(frozenAt + 10_001);
        partition.evict();
        assertEquals(1, partition.segments().length, "the first segment, emptied, is gone: only the head is left");
        assertEquals(2, partition.startOffset());

        assertTrue(cursor.next());
        assertEquals(written.get(2L), written(cursor.entry()));
        assertFalse(cursor.gap(), "compacted away is no gap");
        cursor.seek(0);
        assertTrue(cursor.next());
        assertEquals(2, cursor.entry().offset());
        assertFalse(cursor.gap(), "nothing was evicted");
        cursor.close();
    }

    @Test
    void shouldKeepRecordsWithANullKey()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0,
            COMPACT.withDeleteRetentionMs(10_000), now::get);
        for (long offset = 0; offset < 600; offset++)
        {
            if (offset == 300)
            {
                append(partition, offset, null, null);
            }
            else if (offset % 3 == 0)
            {
                append(partition, offset, null, "null-key-" + offset);
            }
            else
            {
                append(partition, offset, "key-" + offset % 7, "value-" + offset);
            }
        }
        now.addAndGet(SEGMENT_MS);
        append(partition, 600, "last", "value-600");

        final List<Written> read = read(partition, 0);
        assertEquals(latest(), read);
        assertEquals(200, read.stream().filter(w -> w.key() == null).count(), "every record with a null key");
        assertTrue(partition.segments().length > 2);

        // not even a tombstone with a null key goes, and it does not make the cleaner run again and again
        final int compactions = partition.compactions();
        now.addAndGet(CacheConfig.DELETE_RETENTION_MS_DEFAULT);
        partition.evict();
        partition.evict();
        assertEquals(compactions, partition.compactions());
        assertEquals(read, read(partition, 0));
    }

    @Test
    void shouldTellKeysApartByTheirBytes()
    {
        final String[] collision = collidingKeys();
        final CachePartition partition = new CachePartition(cache, "compacted", 0, COMPACT, now::get);
        for (long offset = 0; offset < 300; offset++)
        {
            append(partition, offset, offset % 3 == 2 ? "other" : collision[(int) (offset % 3)], "value-" + offset);
        }
        now.addAndGet(SEGMENT_MS);
        append(partition, 300, "last", "value-300");

        final List<Written> read = read(partition, 0);
        assertEquals(List.of(written.get(297L), written.get(298L), written.get(299L), written.get(300L)), read,
            "two keys with the same CRC32C are two keys");
    }

    @Test
    void shouldGoOnInsideASegmentTheCleanerRewrites()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0, COMPACT, now::get);
        long offset = 0;
        for (int i = 0; i < PER_SEGMENT; i++)
        {
            append(partition, offset, key("k", i), value(offset));
            offset++;
        }
        final CacheSegment first = partition.segments()[0];
        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(0);
        for (int i = 0; i < 10; i++)
        {
            assertTrue(cursor.next());
        }
        assertEquals(9, cursor.entry().offset());

        // the roll freezes the first segment and the cleaner trims it: a new segment at the same base offset
        append(partition, offset, key("k", 0), value(offset));
        offset++;
        assertEquals(2, partition.segments().length);
        assertTrue(first.deleted());
        assertTrue(partition.segments()[0].compacted());
        assertEquals(0, partition.segments()[0].baseOffset());
        assertEquals("k09", string(cursor.entry().key()), "still mapped: the cursor pins it");
        assertTrue(partition.footprint() > directorySize(partition.directory()), "the retired files still count");

        // k01-k04 (before the cursor) and k15-k19 (after it) superseded, then new keys to fill the head
        for (int i = 1; i < 5; i++)
        {
            append(partition, offset, key("k", i), value(offset));
            offset++;
        }
        for (int i = 15; i < 20; i++)
        {
            append(partition, offset, key("k", i), value(offset));
            offset++;
        }
        while (offset < 2 * PER_SEGMENT)
        {
            append(partition, offset, key("n", (int) offset), value(offset));
            offset++;
        }
        append(partition, offset, key("z", 0), value(offset));
        offset++;
        assertEquals(3, partition.segments().length, "not merged: 18 and 28 entries do not fit one log");
        assertEquals(PER_SEGMENT - 10, partition.segments()[0].records());

        final List<Long> expected = new ArrayList<>(List.of(10L, 11L, 12L, 13L, 14L, 20L, 21L, 22L, 23L, 24L, 25L, 26L,
            27L));
        for (long next = PER_SEGMENT; next < offset; next++)
        {
            expected.add(next);
        }
        final List<Long> read = new ArrayList<>();
        while (cursor.next())
        {
            assertFalse(cursor.gap());
            assertEquals(written.get(cursor.entry().offset()), written(cursor.entry()));
            read.add(cursor.entry().offset());
        }
        assertEquals(expected, read, "on from offset 10 in the rewritten segment: no duplicate, nothing missed");
        partition.evict();
        assertEquals(directorySize(partition.directory()), partition.footprint(), "unmapped once the cursor moved on");
        cursor.close();
    }

    @Test
    void shouldGoOnInsideASegmentMergedIntoTheOneBefore()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0, COMPACT, now::get);
        long offset = 0;
        for (int i = 0; i < PER_SEGMENT; i++)
        {
            append(partition, offset, key("k", i), value(offset));
            offset++;
        }
        // the head: k00-k06 four times over, so that 7 of its 28 entries stay, and 21 of the first segment's
        for (int i = 0; i < PER_SEGMENT; i++)
        {
            append(partition, offset, key("k", i % 7), value(offset));
            offset++;
        }
        final CacheSegment[] before = partition.segments();
        assertEquals(2, before.length);

        final CacheCursor inFirst = new CacheCursor(partition);
        inFirst.seek(0);
        for (int i = 0; i < 5; i++)
        {
            assertTrue(inFirst.next());
        }
        final CacheCursor inHead = new CacheCursor(partition);
        inHead.seek(PER_SEGMENT);
        for (int i = 0; i < 3; i++)
        {
            assertTrue(inHead.next());
        }
        assertEquals(PER_SEGMENT + 2, inHead.entry().offset());

        append(partition, offset, key("z", 0), value(offset));
        offset++;
        final CacheSegment[] after = partition.segments();
        assertEquals(2, after.length, "the two merged, then the new head");
        assertTrue(before[0].deleted() && before[1].deleted());
        assertEquals(0, after[0].baseOffset());
        assertEquals(PER_SEGMENT, after[0].records(), "21 of the first, 7 of the second");

        final List<Long> fromFirst = new ArrayList<>();
        for (long next = 7; next < PER_SEGMENT; next++)
        {
            fromFirst.add(next);
        }
        final List<Long> fromHead = new ArrayList<>();
        for (long next = 2L * PER_SEGMENT - 7; next < offset; next++)
        {
            fromFirst.add(next);
            fromHead.add(next);
        }
        assertEquals(fromFirst, offsets(inFirst), "from offset 5, k05 and k06 superseded");
        assertEquals(fromHead, offsets(inHead), "from offset 31, in the merged segment at base 0");
        partition.evict();
        assertEquals(directorySize(partition.directory()), partition.footprint());
    }

    @Test
    void shouldGoOnFromTheEndOfASegmentMergedWithTheNextOne()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0, COMPACT, now::get);
        long offset = 0;
        // k00-k27, then g00-g27: two compacted segments that do not fit one
        for (int i = 0; i < PER_SEGMENT; i++)
        {
            append(partition, offset, key("k", i), value(offset));
            offset++;
        }
        for (int i = 0; i < PER_SEGMENT; i++)
        {
            append(partition, offset, key("g", i), value(offset));
            offset++;
        }
        // k00-k20 and g00-g06 again: 7 and 21 left of them, which fit one
        for (int i = 0; i < PER_SEGMENT; i++)
        {
            append(partition, offset, i < 21 ? key("k", i) : key("g", i - 21), value(offset));
            offset++;
        }
        final CacheSegment[] before = partition.segments();
        assertEquals(3, before.length);
        assertTrue(before[0].compacted() && before[1].compacted());

        // at the end of the first segment, with nothing more read: its next step will be to the segment after it
        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(21);
        for (long expected = 21; expected < PER_SEGMENT; expected++)
        {
            assertTrue(cursor.next());
            assertEquals(expected, cursor.entry().offset());
        }

        // the cursor steps in the window where the merged segment is published and the first one not yet deleted
        final List<Long> inWindow = new ArrayList<>();
        partition.onPublished(() ->
        {
            if (inWindow.isEmpty())
            {
                assertFalse(before[0].deleted());
                assertTrue(cursor.next());
                assertFalse(cursor.gap());
                inWindow.add(cursor.entry().offset());
            }
        });
        append(partition, offset, key("z", 0), value(offset));
        offset++;
        partition.onPublished(null);
        assertTrue(before[0].deleted() && before[1].deleted());
        assertEquals(PER_SEGMENT, partition.segments()[0].records(), "merged: 7 of the first, 21 of the second");

        assertEquals(List.of(PER_SEGMENT + 7L), inWindow, "on to g07, merged into the first segment's replacement");
        final List<Long> expected = new ArrayList<>();
        for (long next = PER_SEGMENT + 8; next < offset; next++)
        {
            expected.add(next);
        }
        assertEquals(expected, offsets(cursor), "g08-g27, then the third segment and the head");
    }

    @Test
    void shouldRetainByNeitherTimeNorSizeWhenCompactOnly()
    {
        final CachePartition partition = new CachePartition(cache, "compacted", 0,
            COMPACT.withRetentionMs(1_000).withRetentionBytes(0), now::get);
        for (long offset = 0; offset < 10 * PER_SEGMENT; offset++)
        {
            partition.append(offset, 0, bytes(key("k", (int) offset)), bytes(value(offset)), null);
        }
        now.addAndGet(1_000_000);
        assertEquals(0, partition.evict());
        assertEquals(0, partition.startOffset());
        assertEquals(10 * PER_SEGMENT, read(partition, 0).size(), "every key, however old, whatever the size");
        assertEquals(CacheConfig.UNLIMITED, partition.config().partitionFootprint(), "no bound by retention");
    }

    @Test
    void shouldCompactAndRetainWithCompactDelete()
    {
        final CacheConfig config = COMPACT.withCleanupPolicy(CleanupPolicy.COMPACT_DELETE).withRetentionMs(10_000);
        final CachePartition partition = new CachePartition(cache, "compacted", 0, config, now::get);
        long offset = 0;
        for (int i = 0; i < PER_SEGMENT; i++)
        {
            append(partition, offset, now.get(), key("k", i), value(offset));
            offset++;
        }
        // k00-k13 again, and as many new keys: 14 of the first segment and 28 of the second do not fit one
        for (int i = 0; i < PER_SEGMENT; i++)
        {
            append(partition, offset, now.get() + 30_000, key(i < 14 ? "k" : "m", i), value(offset));
            offset++;
        }
        append(partition, offset, now.get() + 30_000, key("z", 0), value(offset));
        offset++;
        final CacheSegment[] segments = partition.segments();
        assertEquals(3, segments.length);
        assertEquals(PER_SEGMENT - 14, segments[0].records(), "compacted: k00-k13 superseded");

        final CacheCursor cursor = new CacheCursor(partition);
        cursor.seek(0);
        assertTrue(cursor.next());
        assertEquals(14, cursor.entry().offset());
        assertFalse(cursor.gap());

        now.addAndGet(11_000);
        assertEquals(1, partition.evict(), "k14-k27 older than retention.ms: gone, latest records or not");
        assertEquals(segments[1].baseOffset(), partition.startOffset());
        assertTrue(cursor.next());
        assertEquals(PER_SEGMENT, cursor.entry().offset());
        assertTrue(cursor.gap(), "eviction is a gap");
        cursor.close();

        final CacheConfig bySize = config.withRetentionBytes(3 * config.segmentFootprint());
        assertEquals(3 * bySize.segmentFootprint() + 2 * bySize.segmentFootprint(), bySize.partitionFootprint());
    }

    @Test
    void shouldWaitForTheDirtyRatio()
    {
        final double ratio = 0.5;
        final CachePartition partition = new CachePartition(cache, "compacted", 0,
            COMPACT.withMinCleanableDirtyRatio(ratio), now::get);
        int rolls = 0;
        boolean deferred = false;
        long headBase = 0;
        for (long offset = 0; offset < 40 * PER_SEGMENT; offset++)
        {
            partition.append(offset, offset, bytes(key("k", (int) (offset % 150))), bytes(value(offset)), null);
            final CacheSegment[] segments = partition.segments();
            if (segments[segments.length - 1].baseOffset() != headBase)
            {
                headBase = segments[segments.length - 1].baseOffset();
                rolls++;
                long clean = 0;
                long dirty = 0;
                for (int i = 0; i < segments.length - 1; i++)
                {
                    clean += segments[i].compacted() ? segments[i].footprint() : 0;
                    dirty += segments[i].compacted() ? 0 : segments[i].footprint();
                }
                assertTrue(dirty < ratio * (clean + dirty) || dirty == 0, "at most half dirty after the roll");
                deferred |= dirty > 0;
            }
        }
        assertTrue(deferred, "some rolls left a dirty segment for later");
        assertTrue(partition.compactions() < rolls, partition.compactions() + " passes over " + rolls + " rolls");
        assertTrue(partition.compactions() > rolls / 4, partition.compactions() + " passes over " + rolls + " rolls");
    }

    private void append(CachePartition partition, long offset, String key, String value, String... headers)
    {
        append(partition, offset, offset + 7, key, value, headers);
    }

    private void append(CachePartition partition, long offset, long timestamp, String key, String value,
        String... headers)
    {
        partition.append(offset, timestamp, bytes(key), bytes(value), headers.length > 0 ? headers(headers) : null);
        written.put(offset, new Written(offset, timestamp, key, value, Arrays.asList(headers)));
    }

    /** What was written, less the records superseded by a later one with the same key, in offset order. */
    private List<Written> latest()
    {
        final Map<String, Long> latest = new HashMap<>();
        written.values().forEach(w -> latest.put(w.key(), w.offset()));
        return written.values().stream()
            .filter(w -> w.key() == null || latest.get(w.key()) == w.offset())
            .toList();
    }

    /** Everything from {@code offset}, none of it after a gap. */
    private static List<Written> read(CachePartition partition, long offset)
    {
        final List<Written> read = new ArrayList<>();
        try (CacheCursor cursor = new CacheCursor(partition))
        {
            cursor.seek(offset);
            while (cursor.next())
            {
                assertFalse(cursor.gap(), "no gap before " + cursor.entry().offset());
                read.add(written(cursor.entry()));
            }
        }
        return read;
    }

    private static List<Long> offsets(CacheCursor cursor)
    {
        final List<Long> offsets = new ArrayList<>();
        long last = -1;
        while (cursor.next())
        {
            assertFalse(cursor.gap());
            assertTrue(cursor.entry().offset() > last);
            last = cursor.entry().offset();
            offsets.add(last);
        }
        cursor.close();
        return offsets;
    }

    private static Written written(CacheEntry entry)
    {
        return new Written(entry.offset(), entry.timestamp(), string(entry.key()), string(entry.value()),
            CacheBuffers.headers(entry));
    }

    private long entrySize(Written w)
    {
        int headers = 0;
        if (!w.headers().isEmpty())
        {
            headers = headers(w.headers().toArray(new String[0])).capacity();
        }
        return CacheEntry.sizeOf(bytes(w.key()) != null ? bytes(w.key()).capacity() : -1,
            w.value() != null ? bytes(w.value()).capacity() : -1, Math.max(headers, 4));
    }

    private static String key(String prefix, int i)
    {
        return String.format("%s%02d", prefix, i);
    }

    /** 100 bytes, the offset first. */
    private static String value(long offset)
    {
        return String.format("value-%06d-%s", offset, "v".repeat(87));
    }
}
