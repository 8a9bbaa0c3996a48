/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static io.zilla.bindings.kafka.cache.CacheBuffers.bytes;
import static io.zilla.bindings.kafka.cache.CacheBuffers.collidingKeys;
import static io.zilla.bindings.kafka.cache.CacheBuffers.hashOfKey;
import static io.zilla.bindings.kafka.cache.CacheBuffers.headers;
import static io.zilla.bindings.kafka.cache.CacheBuffers.string;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongPredicate;
import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Filters by key and by header, through the hash index of frozen segments and the hash scan of the head, with the
 * real bytes compared to rule out keys that share a hash.
 */
class CacheFilterTest
{
    /** Small segments, and no retention by time: the records' timestamps are their offsets, 1970 to the clock. */
    private static final CacheConfig SMALL = CacheConfig.DEFAULTS
        .withSegmentBytes(CacheConfig.SEGMENT_BYTES_MIN)
        .withSegmentIndexBytes(CacheConfig.SEGMENT_INDEX_BYTES_MIN)
        .withRetentionMs(CacheConfig.UNLIMITED);
    private static final int RECORDS = 600;

    @TempDir
    Path cache;

    @Test
    void shouldFilterByKeyAcrossFrozenSegmentsAndTheHead()
    {
        final CachePartition partition = fill();

        assertEquals(expected(o -> o % 5 == 2), read(partition, 0, new CacheFilter().key(bytes("key-2"))));
        final CacheCursor cursor = new CacheCursor(partition).filter(new CacheFilter().key(bytes("key-2")));
        cursor.seek(0);
        while (cursor.next())
        {
            assertEquals("key-2", string(cursor.entry().key()));
            assertEquals("value-" + cursor.entry().offset(), string(cursor.entry().value()));
        }
        assertEquals(expected(o -> o % 5 == 2 && o >= 301), read(partition, 301, new CacheFilter().key(bytes("key-2"))),
            "from the middle, as after a seek");
        assertEquals(expected(o -> o % 5 == 1 || o % 5 == 3),
            read(partition, 0, new CacheFilter().key(bytes("key-1")).or().key(bytes("key-3"))));
        assertEquals(expected(o -> o % 50 == 0), read(partition, 0, new CacheFilter().key(null)), "the null key");
        assertEquals(List.of(), read(partition, 0, new CacheFilter().key(bytes("key-9"))));
    }

    @Test
    void shouldFilterByHeaderAcrossFrozenSegmentsAndTheHead()
    {
        final CachePartition partition = fill();

        assertEquals(expected(o -> o % 3 == 0), read(partition, 0, new CacheFilter().header(bytes("type"), bytes("even-3"))));
        assertEquals(expected(o -> o % 7 == 0), read(partition, 0, new CacheFilter().header(bytes("flag"), null)),
            "a null header value");
        assertEquals(expected(o -> o % 3 == 0 && o % 5 == 4 && o % 50 != 0),
            read(partition, 0, new CacheFilter().key(bytes("key-4")).header(bytes("type"), bytes("even-3"))),
            "key and header");
        assertEquals(List.of(), read(partition, 0, new CacheFilter().header(bytes("type"), bytes("key-2"))),
            "a value that is a key elsewhere");
    }

    @Test
    void shouldFollowTheHeadWithAFilter()
    {
        final CachePartition partition = new CachePartition(cache, "events", 0, SMALL);
        final CacheCursor cursor = new CacheCursor(partition).filter(new CacheFilter().key(bytes("b")));
        cursor.seek(0);
        final List<Long> read = new ArrayList<>();
        for (long offset = 0; offset < RECORDS; offset++)
        {
            partition.append(offset, offset, bytes(offset % 2 == 0 ? "a" : "b"), bytes("v"), null);
            while (cursor.next())
            {
                read.add(cursor.entry().offset());
            }
        }
        assertTrue(partition.segments().length > 3);
        assertEquals(expected(o -> o % 2 == 1), read);
        assertEquals(RECORDS, cursor.nextOffset());
    }

    @Test
    void shouldTellKeysApartThatShareAHash()
    {
        final String[] collision = collidingKeys();
        final DirectBuffer first = bytes(collision[0]);
        final DirectBuffer second = bytes(collision[1]);
        assertNotEquals(collision[0], collision[1]);
        assertEquals(hashOfKey(first), hashOfKey(second), "the same hash, as the index keeps it");

        final CachePartition partition = new CachePartition(cache, "events", 0, SMALL);
        for (long offset = 0; offset < RECORDS; offset++)
        {
            partition.append(offset, offset, offset % 2 == 0 ? first : second, bytes("v" + offset), null);
        }
        assertTrue(partition.segments().length > 3, "frozen segments and the head");

        assertEquals(expected(o -> o % 2 == 0), read(partition, 0, new CacheFilter().key(first)));
        assertEquals(expected(o -> o % 2 == 1), read(partition, 0, new CacheFilter().key(second)));
        // the same collision on a header, name "k" and the two keys as values: CRC32C differs by the same bits
        final DirectBuffer firstHeader = CacheBuffers.headers("k", collision[0]);
        final DirectBuffer secondHeader = CacheBuffers.headers("k", collision[1]);
        assertEquals(CacheHash.of(firstHeader, 4, firstHeader.capacity() - 4),
            CacheHash.of(secondHeader, 4, secondHeader.capacity() - 4));
        final CachePartition headers = new CachePartition(cache, "headers", 0, SMALL);
        for (long offset = 0; offset < RECORDS; offset++)
        {
            headers.append(offset, offset, null, bytes("v"), CacheBuffers.headers("k", collision[(int) (offset % 2)]));
        }
        assertEquals(expected(o -> o % 2 == 1), read(headers, 0, new CacheFilter().header(bytes("k"), second)));
    }

    @Test
    void shouldHashAsCrc32cOfTheEncodedField()
    {
        final UnsafeBuffer direct = new UnsafeBuffer(ByteBuffer.allocateDirect(16));
        direct.putInt(0, 3);
        direct.putBytes(4, "abc".getBytes(UTF_8));
        final CRC32C crc = new CRC32C();
        crc.update(ByteBuffer.allocate(7).order(ByteOrder.nativeOrder()).putInt(3).put("abc".getBytes(UTF_8)).flip());
        assertEquals((int) crc.getValue(), CacheHash.of(direct, 0, 7));
        assertEquals(CacheHash.of(direct, 0, 7), hashOfKey(bytes("abc")), "off and on the heap alike");
    }

    /** 600 records over several segments: keys key-0..key-4 and a null key every 50th; headers type and flag. */
    private CachePartition fill()
    {
        final CachePartition partition = new CachePartition(cache, "events", 0, SMALL);
        for (long offset = 0; offset < RECORDS; offset++)
        {
            final DirectBuffer key = offset % 50 == 0 ? null : bytes("key-" + offset % 5);
            final DirectBuffer headers = offset % 7 == 0
                ? headers("type", "even-" + (offset % 3 == 0 ? 3 : 1), "flag", null)
                : headers("type", "even-" + (offset % 3 == 0 ? 3 : 1));
            partition.append(offset, offset, key, bytes("value-" + offset), headers);
        }
        final CacheSegment[] segments = partition.segments();
        assertTrue(segments.length > 5, segments.length + " segments");
        assertNotNull(segments[0].hashIndex());
        assertNull(segments[segments.length - 1].hashIndex());
        return partition;
    }

    private static List<Long> read(CachePartition partition, long from, CacheFilter filter)
    {
        final CacheCursor cursor = new CacheCursor(partition).filter(filter);
        cursor.seek(from);
        final List<Long> read = new ArrayList<>();
        while (cursor.next())
        {
            read.add(cursor.entry().offset());
        }
        return read;
    }

    private static List<Long> expected(LongPredicate passes)
    {
        final List<Long> expected = new ArrayList<>();
        for (long offset = 0; offset < RECORDS; offset++)
        {
            if (passes.test(offset))
            {
                expected.add(offset);
            }
        }
        return expected;
    }
}
