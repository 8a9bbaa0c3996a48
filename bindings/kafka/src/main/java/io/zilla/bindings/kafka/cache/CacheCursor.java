/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * One reader's place in a partition, on any thread, without locks and, once built, without allocating: {@link #seek}
 * to an offset, then {@link #next()} while it finds entries, each read in place through {@link #entry()}.
 * <p>
 * With a {@link CacheFilter}, candidates come from the hash indexes (a binary search in a frozen segment's
 * {@code .hindex}, a scan of the head's {@code .hscan} that resumes where it stopped) and each is checked on its bytes.
 * <p>
 * A cursor whose segment was evicted moves to the oldest segment left, at its first entry at or after the offset it
 * wanted, and {@link #gap()} says that records in between may be lost. A cursor whose segment the cleaner of a
 * compacted partition rewrote (or merged into another, or emptied) goes on in the same way, at its first entry at or
 * after the offset it wanted in whatever holds that offset now; that is no gap: the records left out were superseded
 * by later ones with the same key, which the cursor will read.
 * <p>
 * The cursor pins the segment it reads: it publishes it (a volatile write) before it checks, at every step, that the
 * segment was not deleted, and the partition's writer unmaps no segment that a cursor pins. So whatever the cursor
 * reads is mapped, and an evicted segment's disk blocks are freed once its cursors move on. {@link #close()} a cursor
 * that is done, or it pins its last segment for ever.
 */
public final class CacheCursor implements AutoCloseable
{
    private static final int UNKNOWN = -1;
    // the scans of a cursor without a filter: none, and one empty array for all of them rather than one each
    private static final int[] NO_SCANS = new int[0];

    private final CachePartition partition;
    private final CacheEntry entry;
    private int entryPosition;

    private CacheFilter filter;
    private int[] scans = NO_SCANS;
    private CacheSegment segment;
    private int position;
    private long nextOffset;
    private boolean jumped;
    private boolean skipped;
    private boolean gap;
    // the segment this cursor counts in (its pin count), only ever touched by the cursor's thread
    private CacheSegment pinned;

    /** A cursor on the partition (allocates: once per reader). */
    public CacheCursor(CachePartition partition)
    {
        this(partition, new CacheEntry());
    }

    /**
     * A cursor that reads through a flyweight it shares with the other cursors of its thread: {@link #entry()} wraps it
     * again at this cursor's entry each time, so a thread's thousands of cursors need one set of views, not one each.
     */
    public CacheCursor(CachePartition partition, CacheEntry shared)
    {
        this.partition = partition;
        this.entry = shared;
    }

    /** The partition the cursor reads. */
    public CachePartition partition()
    {
        return partition;
    }

    /** Lets only entries that pass {@code filter} through, null for all (allocates: once per reader). */
    public CacheCursor filter(CacheFilter filter)
    {
        this.filter = filter;
        this.scans = filter != null && filter.groups() > 0 ? new int[filter.groups()] : NO_SCANS;
        resetScans();
        return this;
    }

    /**
     * Goes before the first entry at or after {@code offset}: the oldest one retained if {@code offset} is older, or
     * the next one appended if {@code offset} is beyond the latest.
     */
    public void seek(long offset)
    {
        nextOffset = offset;
        gap = false;
        skipped = false;
        jumped = false;
        seat(offset);
    }

    /**
     * Moves to the next entry that passes the filter: false when there is none yet (call again once the writer
     * appended). The previous entry's views are then no longer valid.
     */
    public boolean next()
    {
        boolean found = false;
        boolean blocked = false;
        while (!found && !blocked)
        {
            // the segment is pinned before this check: if it is not deleted now, the writer leaves it mapped
            CacheSegment segment = this.segment;
            if (segment == null || segment.deleted())
            {
                blocked = !seat(nextOffset);
                continue;
            }

            // frozen first, then the limit: once frozen, the limit read after it is the last one
            final boolean frozen = segment.frozen();
            final int limit = segment.log().limit();
            final int candidate = candidate(segment, limit);
            if (candidate != UNKNOWN)
            {
                entry.wrap(segment.log().buffer(), candidate);
                entryPosition = candidate;
                position = candidate + entry.length();
                final long offset = entry.offset();
                if (offset >= nextOffset)
                {
                    skipped |= jumped && offset > nextOffset;
                    jumped = false;
                    nextOffset = offset + 1;
                    found = filter == null || filter.matches(entry);
                }
            }
            else if (frozen)
            {
                blocked = !advance(segment);
            }
            else
            {
                blocked = true;
            }
        }
        if (found)
        {
            gap = skipped;
            skipped = false;
        }
        return found;
    }

    /** The current entry, read in place: valid until the next move (and the next call of another cursor sharing it). */
    public CacheEntry entry()
    {
        return entry.wrap(segment.log().buffer(), entryPosition);
    }

    /** The offset the cursor asks for next: one after the last entry it went past, or what it was sought to. */
    public long nextOffset()
    {
        return nextOffset;
    }

    /**
     * Whether records may be missing before the current entry: the cursor had to jump over evicted segments (its own
     * evicted under it, or a seek below what the cache still holds) and landed past the offset it asked for. Offsets
     * that Kafka itself skips (compacted topics), and records that the cache's own cleaner compacted away, are no gap.
     */
    public boolean gap()
    {
        return gap;
    }

    /** Unpins the last segment: the cursor is not to be used again. */
    @Override
    public void close()
    {
        segment = null;
        pin(null);
    }

    // the next segment counted before the last one is let go: the cursor is never in none it reads
    private void pin(CacheSegment next)
    {
        final CacheSegment last = pinned;
        if (next != last)
        {
            if (next != null)
            {
                next.pin();
            }
            if (last != null)
            {
                last.unpin();
            }
            pinned = next;
        }
    }

    /**
     * To the segment that holds {@code offset}, or the oldest; false while the partition has none. Read after the
     * segments, the eviction mark is at least as new as they are: below it, records may be gone.
     */
    private boolean seat(long offset)
    {
        final CacheSegment[] segments = partition.segments();
        jumped |= offset < partition.evictedBefore();
        CacheSegment seated = null;
        if (segments.length > 0)
        {
            seated = segments[Math.max(floor(segments, offset), 0)];
            pin(seated);
            // pinned, then checked: if deleted already, next() finds out before it reads anything and seats again
            position = seated.deleted() ? 0 : seated.positionOf(offset, seated.log().limit());
            resetScans();
        }
        segment = seated;
        return seated != null;
    }

    /**
     * To the segment after this one, false while there is none yet (a roll between its freeze and its publication).
     * If this one is not in the array any more, to wherever the offset wanted is now: the segment was evicted (maybe
     * with others after it, which {@link #seat} finds a gap by), or the cleaner replaced it with a segment that may
     * also hold records of the segments after it, which the cursor has not read yet.
     */
    private boolean advance(CacheSegment frozen)
    {
        final CacheSegment[] segments = partition.segments();
        final int at = floor(segments, frozen.baseOffset());
        final boolean advanced;
        if (at >= 0 && segments[at] == frozen)
        {
            final int next = at + 1;
            advanced = next < segments.length;
            if (advanced)
            {
                pin(segments[next]);
                segment = segments[next];
                position = 0;
                resetScans();
            }
        }
        else
        {
            advanced = seat(nextOffset);
        }
        return advanced;
    }

    /** The position of the next entry to look at, below {@code limit}, or {@link #UNKNOWN} when there is none yet. */
    private int candidate(CacheSegment segment, int limit)
    {
        int candidate = UNKNOWN;
        if (filter == null)
        {
            candidate = position < limit ? position : UNKNOWN;
        }
        else
        {
            final CacheFile sorted = segment.hashIndex();
            for (int group = 0; group < scans.length; group++)
            {
                final int found = sorted != null
                    ? sortedCandidate(sorted, filter.hash(group))
                    : scannedCandidate(segment.hashScan(), group, limit);
                if (found != UNKNOWN && found < limit && (candidate == UNKNOWN || found < candidate))
                {
                    candidate = found;
                }
            }
        }
        return candidate;
    }

    /** The first entry at or after the position with this hash: a binary search, as the hash index is sorted. */
    private int sortedCandidate(CacheFile sorted, int hash)
    {
        final UnsafeBuffer buffer = sorted.buffer();
        final int count = sorted.limit() / CacheIndexEntries.SIZE;
        final int found = CacheIndexEntries.lowerBound(buffer, count, CacheHash.entry(hash, position));
        int candidate = UNKNOWN;
        if (found < count)
        {
            final long hashEntry = buffer.getLong(found * CacheIndexEntries.SIZE);
            candidate = CacheIndexEntries.high(hashEntry) == hash ? CacheIndexEntries.position(hashEntry) : UNKNOWN;
        }
        return candidate;
    }

    /**
     * The first entry at or after the position with the group's hash, scanning the hash scan from where the group's
     * last scan stopped. The hash scan is read after the log's limit, so it holds the hashes of every entry below it.
     */
    private int scannedCandidate(CacheFile hashScan, int group, int limit)
    {
        final UnsafeBuffer buffer = hashScan.buffer();
        final int count = hashScan.limit() / CacheIndexEntries.SIZE;
        final int hash = filter.hash(group);
        int scan = scans[group];
        if (scan == UNKNOWN)
        {
            scan = CacheIndexEntries.lowerBoundByPosition(buffer, count, position);
        }
        int candidate = UNKNOWN;
        for (; scan < count; scan++)
        {
            final long hashEntry = buffer.getLong(scan * CacheIndexEntries.SIZE);
            final int found = CacheIndexEntries.position(hashEntry);
            if (found >= position && CacheIndexEntries.high(hashEntry) == hash)
            {
                // stay on it: taken now if the log published it, else looked at again on the next call
                candidate = found < limit ? found : UNKNOWN;
                break;
            }
        }
        scans[group] = scan;
        return candidate;
    }

    private void resetScans()
    {
        for (int group = 0; group < scans.length; group++)
        {
            scans[group] = UNKNOWN;
        }
    }

    /** The last segment whose base offset is at or below {@code offset}, -1 if all are above. */
    private static int floor(CacheSegment[] segments, long offset)
    {
        int low = 0;
        int high = segments.length;
        while (low < high)
        {
            final int middle = (low + high) >>> 1;
            if (segments[middle].baseOffset() <= offset)
            {
                low = middle + 1;
            }
            else
            {
                high = middle;
            }
        }
        return low - 1;
    }
}
