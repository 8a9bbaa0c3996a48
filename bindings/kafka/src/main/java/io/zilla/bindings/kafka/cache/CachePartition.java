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
 * With {@code cleanup.policy=compact} (or {@code compact,delete}) a cleaner keeps the latest record of each key, as
 * Kafka does. It runs on the writer, at a roll or from {@link #evict()}, once the segments frozen since its last pass
 * take {@code min.cleanable.dirty.ratio} of the frozen segments' footprint or a tombstone it kept is older than
 * {@code delete.retention.ms}. A pass reads every record for its key (see
 * {@link CacheCleaner}), then walks the frozen segments oldest first, in runs that fit one segment, and rewrites each
 * run that loses records, merges several, or was never trimmed, into one compacted segment at the run's first base
 * offset, with the offsets of the records it keeps. The new segment is published in place of the run, whose segments
 * are then retired as eviction retires them: marked deleted after the new array, unmapped once no cursor pins them. A
 * cursor in a retired segment goes on from the offset it wants in what the array holds now: compaction is no gap. The
 * head is never rewritten. With {@code compact} alone, nothing is removed by time or size.
 */
public final class CachePartition
{
    private static final VarHandle LATEST_OFFSET;
    private static final CacheSegment[] NO_SEGMENTS = new CacheSegment[0];

    static
    {
        try
        {
            final MethodHandles.Lookup lookup = MethodHandles.lookup();
            LATEST_OFFSET = lookup.findVarHandle(CachePartition.class, "latestOffset", long.class);
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

    private final List<CacheSegment> retiredOwners = new ArrayList<>();
    private final List<CacheFile> retiredFiles = new ArrayList<>();
    private long retiredBytes;

    private final CacheCleaner cleaner;
    private long tombstonesExpireAfter = Long.MAX_VALUE;
    private int compactions;
    private Runnable published;

    public CachePartition(Path cacheDirectory, String topic, int partition, CacheConfig config)
    {
        this(cacheDirectory, topic, partition, config, System::currentTimeMillis);
    }

    /**
     * With the clock, in milliseconds, that {@code segment.ms}, {@code retention.ms} and {@code delete.retention.ms}
     * count by.
     */
    public CachePartition(Path cacheDirectory, String topic, int partition, CacheConfig config, LongSupplier clock)
    {
        this.directory = cacheDirectory.resolve(topic + "-" + partition);
        this.config = config;
        this.clock = clock;
        this.cleaner = config.cleanupPolicy().compacts() ? new CacheCleaner() : null;
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

    /** Whether readers can start here: the writer knows where it starts and its end (its first fetch answered). */
    public boolean readable()
    {
        return fetchedOffset() >= 0L && highWatermark() >= 0L;
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
     * goes on removing old segments when nothing is appended and no one reads. On a compacted partition, the cleaner
     * runs too if it is due: tombstones past {@code delete.retention.ms} go without waiting for a roll.
     *
     * @return how many segments retention removed
     */
    public int evict()
    {
        final int evicted = evict(0L);
        final CacheSegment[] segments = this.segments;
        if (cleaner != null && segments.length > 0)
        {
            compactIfDue(segments, segments.length - 1);
        }
        return evicted;
    }

    /** How many passes the cleaner made: 0 unless the partition is compacted. */
    int compactions()
    {
        return compactions;
    }

    /**
     * For tests: runs {@code hook} on the writer each time the cleaner has published a rewritten run and has not yet
     * retired the run's segments, the window in which a cursor may find its segment gone from the array but not yet
     * marked deleted.
     */
    void onPublished(Runnable hook)
    {
        this.published = hook;
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
            head.freeze(clock.getAsLong());
            retire(head, head.hashScan());
            reclaim();
            if (cleaner != null)
            {
                // every segment is frozen until the next head is created: the pass has the room the head will take
                tombstonesExpireAfter = Math.min(tombstonesExpireAfter, expiry(head));
                final CacheSegment[] segments = this.segments;
                compactIfDue(segments, segments.length);
            }
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

        final boolean deletes = config.cleanupPolicy().deletes();
        int evicted = 0;
        while (evicted < segments.length - 1)
        {
            final CacheSegment oldest = segments[evicted];
            final boolean expired = deletes && config.retentionMs() != CacheConfig.UNLIMITED
                && oldest.maxTimestamp() < now - config.retentionMs();
            final boolean oversized = deletes && config.retentionBytes() != CacheConfig.UNLIMITED
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

    /**
     * Runs the cleaner over the first {@code frozen} segments if it is due: the segments frozen since its last pass
     * (those not compacted yet) take {@code min.cleanable.dirty.ratio} of the frozen segments' footprint, or a
     * tombstone it kept is past {@code delete.retention.ms}.
     */
    private void compactIfDue(CacheSegment[] segments, int frozen)
    {
        long clean = 0L;
        long dirty = 0L;
        for (int i = 0; i < frozen; i++)
        {
            final CacheSegment segment = segments[i];
            if (segment.compacted())
            {
                clean += segment.footprint();
            }
            else
            {
                dirty += segment.footprint();
            }
        }
        final long now = clock.getAsLong();
        if (dirty > 0L && dirty >= config.minCleanableDirtyRatio() * (clean + dirty) || now > tombstonesExpireAfter)
        {
            compact(segments, frozen, now);
        }
    }

    /**
     * One pass of the cleaner over the first {@code frozen} segments, with the head (if any) read for its keys. The
     * frozen segments go in runs, oldest first: a run takes the next segment while what stays of them all fits one
     * segment of the configuration (log, index, hash index, and a 31-bit offset range from the run's base). A run is
     * rewritten when it loses a record, when it merges segments, or when its segment was never trimmed (a frozen head,
     * mapped at full capacity); otherwise it stays as it is. Each rewritten run is published on its own, then its
     * segments are retired, so the copies on disk beside the originals never take more than one segment.
     */
    private void compact(CacheSegment[] original, int frozen, long now)
    {
        cleaner.scan(original, frozen, now, config.deleteRetentionMs());
        final long maxOffsetDelta = Integer.MAX_VALUE;
        final List<CacheSegment> cleaned = new ArrayList<>(frozen);
        int from = 0;
        while (from < frozen)
        {
            final long base = original[from].baseOffset();
            long logBytes = cleaner.keptBytes(from);
            long records = cleaner.kept(from);
            long hashes = cleaner.keptHashes(from);
            boolean changes = cleaner.dropped(from) > 0 || !original[from].compacted();
            int to = from + 1;
            while (to < frozen
                && logBytes + cleaner.keptBytes(to) <= config.segmentBytes()
                && (records + cleaner.kept(to)) * CacheIndexEntries.SIZE <= config.segmentIndexBytes()
                && (hashes + cleaner.keptHashes(to)) * CacheIndexEntries.SIZE <= config.segmentIndexBytes()
                && cleaner.lastKept(to) - base <= maxOffsetDelta)
            {
                logBytes += cleaner.keptBytes(to);
                records += cleaner.kept(to);
                hashes += cleaner.keptHashes(to);
                changes = true;
                to++;
            }

            if (changes)
            {
                final CacheSegment compacted = cleaner.rewrite(directory, from, to);
                if (compacted != null)
                {
                    cleaned.add(compacted);
                }
                final CacheSegment[] segments = new CacheSegment[cleaned.size() + original.length - to];
                for (int i = 0; i < cleaned.size(); i++)
                {
                    segments[i] = cleaned.get(i);
                }
                System.arraycopy(original, to, segments, cleaned.size(), original.length - to);
                this.segments = segments;
                if (published != null)
                {
                    published.run();
                }
                for (int i = from; i < to; i++)
                {
                    retire(original[i]);
                }
                if (compacted != null)
                {
                    compacted.install();
                }
                reclaim();
            }
            else
            {
                cleaned.add(original[from]);
            }
            from = to;
        }
        cleaner.done();

        long expireAfter = Long.MAX_VALUE;
        for (CacheSegment segment : cleaned)
        {
            expireAfter = Math.min(expireAfter, expiry(segment));
        }
        tombstonesExpireAfter = expireAfter;
        compactions++;
    }

    /** After when the cleaner may drop the segment's tombstones: never if it holds none. */
    private long expiry(CacheSegment segment)
    {
        final long frozenAt = segment.frozenAt();
        final long deleteRetentionMs = config.deleteRetentionMs();
        return segment.tombstones() == 0 ? Long.MAX_VALUE
            : frozenAt > Long.MAX_VALUE - deleteRetentionMs ? Long.MAX_VALUE : frozenAt + deleteRetentionMs;
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
        for (int i = retiredFiles.size() - 1; i >= 0; i--)
        {
            final CacheSegment owner = retiredOwners.get(i);
            if (!owner.pinned())
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
