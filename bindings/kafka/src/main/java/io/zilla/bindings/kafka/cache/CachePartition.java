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
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * An evicted segment's files are unlinked at once and unmapped as soon as no cursor pins the segment: each cursor
 * publishes the segment it reads before it checks that the segment was not deleted, and the writer marks a segment
 * deleted before it checks the pins, so one of the two always sees the other (volatile reads and writes are
 * sequentially consistent): either the cursor moves on, or the writer waits for it. The writer looks again at each
 * roll and each {@link #evict()}. Files unlinked but still pinned count in the footprint, so retention evicts more to
 * stay within {@link CacheConfig#partitionFootprint()}; a cursor that stalls inside an evicted segment holds that one
 * segment beyond it until it moves or is closed.
 * <p>
 * {@code cleanup.policy=compact} is refused for now: compaction (keep the latest record per key, honour tombstones) is
 * not built, and retention by time and size alone would drop keys that a compacted topic keeps.
 */
public final class CachePartition
{
    private static final VarHandle LATEST_OFFSET;
    private static final VarHandle CURSORS;
    private static final CacheSegment[] NO_SEGMENTS = new CacheSegment[0];
    private static final CacheCursor[] NO_CURSORS = new CacheCursor[0];

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            LATEST_OFFSET = lookup.findVarHandle(CachePartition.class, "latestOffset", long.class);
            CURSORS = lookup.findVarHandle(CachePartition.class, "cursors", CacheCursor[].class);
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
    private volatile long fetchedOffset = -1L;
    private volatile long stableOffset = -1L;
    private volatile long highWatermark = -1L;
    private volatile CacheCursor[] cursors = NO_CURSORS;

    private final List<CacheSegment> retiredOwners = new ArrayList<>();
    private final List<CacheFile> retiredFiles = new ArrayList<>();
    private long retiredBytes;

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

    /**
     * The next offset the writer will fetch: every record below it that the cache will ever hold is appended already,
     * so a reader whose cursor finds nothing more after reading this has read up to it (offsets Kafka skips, such as
     * transaction markers, included). -1 until the writer knows where it starts.
     */
    public long fetchedOffset()
    {
        return fetchedOffset;
    }

    /** The partition's last stable offset as the writer last heard it, -1 when not known. */
    public long stableOffset()
    {
        return stableOffset;
    }

    /** The partition's high watermark as the writer last heard it, -1 when not known. */
    public long highWatermark()
    {
        return highWatermark;
    }

    /**
     * Publishes the writer's position (writer thread only), after the records below it: see {@link #fetchedOffset()}.
     * Each of the three only grows or stays (-1 leaves the stable offset or high watermark as it was).
     */
    public void fetched(long nextOffset, long stableOffset, long highWatermark)
    {
        if (stableOffset >= 0L)
        {
            this.stableOffset = stableOffset;
        }
        if (highWatermark >= 0L)
        {
            this.highWatermark = highWatermark;
        }
        if (nextOffset > fetchedOffset)
        {
            this.fetchedOffset = nextOffset;
        }
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
     * {@code segment.ms}; retention runs before the new head is created, so the files stay within
     * {@link CacheConfig#partitionFootprint()} (unless cursors stall inside evicted segments, one segment each).
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

    /**
     * The size of the partition's files, with those unlinked but still mapped because a cursor pins their segment:
     * what the footprint bound applies to (writer thread only).
     */
    public long footprint()
    {
        long footprint = retiredBytes;
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
            retire(segment);
        }
        reclaim();
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

    /** Makes the cursor's pins count: from now on the writer unmaps no segment that the cursor pins. */
    void register(CacheCursor cursor)
    {
        CacheCursor[] current;
        CacheCursor[] updated;
        do
        {
            current = cursors;
            updated = Arrays.copyOf(current, current.length + 1);
            updated[current.length] = cursor;
        }
        while (!CURSORS.compareAndSet(this, current, updated));
    }

    void deregister(CacheCursor cursor)
    {
        CacheCursor[] current;
        CacheCursor[] updated;
        do
        {
            current = cursors;
            updated = current;
            for (int i = 0; i < current.length && updated == current; i++)
            {
                if (current[i] == cursor)
                {
                    updated = new CacheCursor[current.length - 1];
                    System.arraycopy(current, 0, updated, 0, i);
                    System.arraycopy(current, i + 1, updated, i, current.length - i - 1);
                }
            }
        }
        while (updated != current && !CURSORS.compareAndSet(this, current, updated));
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
            // make room for the head as it will be once frozen, with its hash scan until the cursors in it move on,
            // then freeze it, and only then create the next
            evict(head.frozenFootprint() + head.hashScan().capacity());
            head.freeze();
            retire(head, head.hashScan());
            reclaim();
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
     * those that take the partition's files (with {@code reserved} more bytes to come) over {@code retention.bytes}.
     * The eviction mark is written first, then the new array, then each segment is marked deleted: a cursor that sees
     * the new array, or its segment deleted, also sees the mark and the new array.
     */
    private int evict(long reserved)
    {
        reclaim();
        final CacheSegment[] segments = this.segments;
        final long now = clock.getAsLong();
        long held = retiredBytes;
        for (int i = 0; i < segments.length - 1; i++)
        {
            held += segments[i].footprint();
        }

        int evicted = 0;
        while (evicted < segments.length - 1)
        {
            final CacheSegment oldest = segments[evicted];
            final boolean expired = config.retentionMs() != CacheConfig.UNLIMITED
                && oldest.maxTimestamp() < now - config.retentionMs();
            final boolean oversized = config.retentionBytes() != CacheConfig.UNLIMITED
                && held + reserved > config.retentionBytes();
            if (!expired && !oversized)
            {
                break;
            }
            held -= oldest.footprint();
            evicted++;
        }

        if (evicted > 0)
        {
            evictedBefore = segments[evicted].baseOffset();
            this.segments = Arrays.copyOfRange(segments, evicted, segments.length);
            for (int i = 0; i < evicted; i++)
            {
                retire(segments[i]);
            }
            reclaim();
        }
        return evicted;
    }

    /** Marks the segment deleted, unlinks its files, and leaves them to {@link #reclaim()}. */
    private void retire(CacheSegment segment)
    {
        segment.delete();
        retire(segment, segment.log());
        retire(segment, segment.index());
        final CacheFile hashIndex = segment.hashIndex();
        if (hashIndex != null)
        {
            retire(segment, hashIndex);
        }
        else
        {
            retire(segment, segment.hashScan());
        }
    }

    private void retire(CacheSegment owner, CacheFile file)
    {
        retiredOwners.add(owner);
        retiredFiles.add(file);
        retiredBytes += file.capacity();
    }

    /** Unmaps the retired files whose segment no cursor pins: the segment was marked before the pins were read. */
    private void reclaim()
    {
        final CacheCursor[] cursors = this.cursors;
        for (int i = retiredFiles.size() - 1; i >= 0; i--)
        {
            final CacheSegment owner = retiredOwners.get(i);
            boolean pinned = false;
            for (int c = 0; c < cursors.length && !pinned; c++)
            {
                pinned = cursors[c].pinned() == owner;
            }
            if (!pinned)
            {
                final CacheFile file = retiredFiles.remove(i);
                retiredOwners.remove(i);
                retiredBytes -= file.capacity();
                file.unmap();
            }
        }
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
