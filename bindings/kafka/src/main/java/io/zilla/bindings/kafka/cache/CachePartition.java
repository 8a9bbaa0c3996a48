/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.function.LongSupplier;
import java.util.stream.Stream;

import org.agrona.DirectBuffer;

/**
 * One topic partition's cached records, in segments under {@code <cache directory>/<topic>-<partition>}: one writer
 * thread (the partition's owner) appends, rolls and retires segments; any number of {@link CacheCursor}s on other
 * threads read at the same time without locks.
 * <p>
 * The segments are an array that the writer replaces, never changes: a roll or an eviction publishes a new array with
 * a volatile write, and a reader walks whichever array it read. The head, the last segment, takes the appends; it is
 * never evicted. A restart starts from an empty directory: the cache is rebuilt from Kafka, nothing depends on it
 * surviving.
 * <p>
 * {@code cleanup.policy=compact} is refused for now: compaction (keep the latest record per key, honour tombstones) is
 * not built, and retention by time and size alone would drop keys that a compacted topic keeps.
 */
public final class CachePartition
{
    private static final VarHandle LATEST_OFFSET;
    private static final CacheSegment[] NO_SEGMENTS = new CacheSegment[0];

    static
    {
        try
        {
            LATEST_OFFSET = MethodHandles.lookup().findVarHandle(CachePartition.class, "latestOffset", long.class);
        }
        catch (ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final Path directory;
    private final CacheConfig config;
    private final LongSupplier clock;

    private volatile CacheSegment[] segments = NO_SEGMENTS;
    private volatile long latestOffset = -1L;
    private volatile long evictedBefore = Long.MIN_VALUE;

    public CachePartition(Path cacheDirectory, String topic, int partition, CacheConfig config)
    {
        this(cacheDirectory, topic, partition, config, System::currentTimeMillis);
    }

    /** With the clock, in milliseconds, that {@code segment.ms} and {@code retention.ms} count by. */
    public CachePartition(Path cacheDirectory, String topic, int partition, CacheConfig config, LongSupplier clock)
    {
        if (config.cleanupPolicy().compacts())
        {
            throw new UnsupportedOperationException("cleanup.policy " + config.cleanupPolicy()
                + ": compaction is not built, see docs/bindings/kafka-cache.md");
        }
        this.directory = cacheDirectory.resolve(topic + "-" + partition);
        this.config = config;
        this.clock = clock;
        clear(directory);
    }

    public Path directory()
    {
        return directory;
    }

    public CacheConfig config()
    {
        return config;
    }

    /** The offset of the last record appended, published after the record: -1 before the first. */
    public long latestOffset()
    {
        return latestOffset;
    }

    /** The base offset of the oldest segment: the oldest offset a cursor can read, -1 when empty. */
    public long startOffset()
    {
        final CacheSegment[] segments = this.segments;
        return segments.length > 0 ? segments[0].baseOffset() : -1L;
    }

    /**
     * Appends a record (writer thread only). Offsets must increase, with gaps allowed (a compacted topic skips some).
     * The buffers are the bytes themselves, each from index 0 to its capacity, so a caller wraps reusable views over
     * its frames; null key, null value (a tombstone) and null headers (none) are kept as such. Headers are encoded as
     * {@link CacheHeadersBuilder} writes them.
     * <p>
     * The head rolls to a new segment, based at this offset, when the record does not fit it or when it is older than
     * {@code segment.ms}; retention runs before the new head is created, so the files never exceed
     * {@link CacheConfig#partitionFootprint()}.
     *
     * @throws IllegalArgumentException for an offset not above the latest, malformed headers, or a record that no
     *                                  segment of this configuration could hold
     */
    public void append(long offset, long timestamp, DirectBuffer key, DirectBuffer value, DirectBuffer headers)
    {
        final long latest = latestOffset;
        if (offset <= latest)
        {
            throw new IllegalArgumentException("offset " + offset + " is not above the latest, " + latest);
        }
        final int keyLength = key != null ? key.capacity() : CacheHeaders.NULL_LENGTH;
        final int valueLength = value != null ? value.capacity() : CacheHeaders.NULL_LENGTH;
        final int headersSize = headers != null ? headers.capacity() : 0;
        if (headers != null)
        {
            CacheHeaders.validate(headers, 0, headersSize);
        }

        CacheSegment head = head();
        if (head == null
            || !head.canAppend(offset, keyLength, valueLength, headersSize)
            || clock.getAsLong() - head.createdAt() >= config.segmentMs())
        {
            if (!CacheSegment.fitsEmpty(config, keyLength, valueLength, headersSize))
            {
                throw new IllegalArgumentException("a record of key " + keyLength + ", value " + valueLength + " and headers "
                    + headersSize + " bytes does not fit a segment of " + config.segmentBytes() + " bytes");
            }
            head = roll(offset);
        }
        head.append(offset, timestamp, key, value, headers);
        LATEST_OFFSET.setRelease(this, offset);
    }

    /**
     * Applies retention now (writer thread only), for a timer to call while no record arrives: {@code retention.ms}
     * goes on removing old segments when nothing is appended and no one reads.
     *
     * @return how many segments were removed
     */
    public int evict()
    {
        return evict(0L);
    }

    /** The size of the partition's files: what the footprint bound applies to. */
    public long footprint()
    {
        long footprint = 0L;
        for (CacheSegment segment : segments)
        {
            footprint += segment.footprint();
        }
        return footprint;
    }

    /** Removes every segment and the directory (writer thread only): a topic deleted, or the cache closed. */
    public void delete()
    {
        final CacheSegment[] segments = this.segments;
        evictedBefore = Long.MAX_VALUE;
        this.segments = NO_SEGMENTS;
        for (CacheSegment segment : segments)
        {
            segment.delete();
        }
        clear(directory);
        try
        {
            Files.deleteIfExists(directory);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /** The segments, oldest first, as last published. */
    CacheSegment[] segments()
    {
        return segments;
    }

    /**
     * Below this offset, records the cache held may have been evicted: a cursor that asked for one of them and lands
     * further on reports a gap. {@code Long.MIN_VALUE} until the first eviction.
     */
    long evictedBefore()
    {
        return evictedBefore;
    }

    private CacheSegment head()
    {
        final CacheSegment[] segments = this.segments;
        return segments.length > 0 ? segments[segments.length - 1] : null;
    }

    private CacheSegment roll(long baseOffset)
    {
        final CacheSegment head = head();
        if (head != null)
        {
            // make room for the head as it will be once frozen, then freeze it, and only then create the next
            evict(head.frozenFootprint());
            head.freeze();
        }
        final CacheSegment next = new CacheSegment(directory, baseOffset, config, clock.getAsLong());
        final CacheSegment[] segments = this.segments;
        final CacheSegment[] rolled = Arrays.copyOf(segments, segments.length + 1);
        rolled[segments.length] = next;
        this.segments = rolled;
        return next;
    }

    /**
     * Removes, oldest first, the segments before the head whose records are all older than {@code retention.ms}, and
     * those that take the frozen segments (with {@code reserved} more bytes to come) over {@code retention.bytes}.
     * The eviction mark is written first, then the new array, then each segment is marked deleted: a cursor that sees
     * the new array, or its segment deleted, also sees the mark and the new array.
     */
    private int evict(long reserved)
    {
        final CacheSegment[] segments = this.segments;
        final long now = clock.getAsLong();
        long frozen = 0L;
        for (int i = 0; i < segments.length - 1; i++)
        {
            frozen += segments[i].footprint();
        }

        int evicted = 0;
        while (evicted < segments.length - 1)
        {
            final CacheSegment oldest = segments[evicted];
            final boolean expired = config.retentionMs() != CacheConfig.UNLIMITED
                && oldest.maxTimestamp() < now - config.retentionMs();
            final boolean oversized = config.retentionBytes() != CacheConfig.UNLIMITED
                && frozen + reserved > config.retentionBytes();
            if (!expired && !oversized)
            {
                break;
            }
            frozen -= oldest.footprint();
            evicted++;
        }

        if (evicted > 0)
        {
            evictedBefore = segments[evicted].baseOffset();
            this.segments = Arrays.copyOfRange(segments, evicted, segments.length);
            for (int i = 0; i < evicted; i++)
            {
                segments[i].delete();
            }
        }
        return evicted;
    }

    private static void clear(Path directory)
    {
        try
        {
            Files.createDirectories(directory);
            try (Stream<Path> files = Files.list(directory))
            {
                for (Path file : (Iterable<Path>) files::iterator)
                {
                    Files.delete(file);
                }
            }
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
