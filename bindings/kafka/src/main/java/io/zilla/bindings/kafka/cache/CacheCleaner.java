/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.nio.file.Path;
import java.util.Arrays;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The compaction of a partition, on its writer thread: which records stay, and their copies into compacted segments.
 * <p>
 * {@link #scan} reads every record of the segments it is given, newest first. The first record met with a key is the
 * latest of that key and stays, unless it is a tombstone in a frozen segment that froze more than
 * {@code delete.retention.ms} ago; every older record with the same key goes. Keys are told apart by their bytes: a
 * table of the keys met so far, open addressing over their CRC32C, points at each key's newest record in the mapped
 * log, and two keys are the same only when their lengths and bytes are. Records with a null key always stay (Kafka
 * refuses them on a compacted topic, so they came from before the topic was compacted). The head is read for its keys,
 * so that what it holds supersedes older records, but nothing of it is dropped: only the frozen segments are rewritten.
 * <p>
 * {@link #rewrite} then copies what stays of a run of frozen segments into one {@link CacheSegment#compacted compacted}
 * segment, whole entries in offset order, based at the first one's base offset.
 * <p>
 * A pass costs a CRC32C of each key held and a probe of the table, then a copy of the segments that change; it
 * allocates only when the table or the marks must grow.
 */
final class CacheCleaner
{
    private static final long EMPTY = -1L;

    private final CacheHash hash = new CacheHash();

    private CacheSegment[] segments;
    private int[] firstRecords = new int[8];
    private int[] kept = new int[8];
    private int[] keptBytes = new int[8];
    private int[] keptHashes = new int[8];
    private int[] keptTombstones = new int[8];
    private int[] dropped = new int[8];
    private long[] lastKept = new long[8];
    private long[] live = new long[8];

    private int[] slotHashes = new int[16];
    private long[] slotLocations = new long[16];
    private int mask;

    /**
     * Marks which records of {@code segments} stay: all of them are read, and the records of the first
     * {@code frozen} may be dropped, the others (the head) are kept whatever they hold.
     */
    void scan(CacheSegment[] segments, int frozen, long now, long deleteRetentionMs)
    {
        this.segments = segments;
        final int count = segments.length;
        if (firstRecords.length < count)
        {
            final int length = Math.max(count, 2 * firstRecords.length);
            firstRecords = new int[length];
            kept = new int[length];
            keptBytes = new int[length];
            keptHashes = new int[length];
            keptTombstones = new int[length];
            dropped = new int[length];
            lastKept = new long[length];
        }
        int records = 0;
        for (int s = 0; s < count; s++)
        {
            firstRecords[s] = records;
            records += segments[s].records();
        }
        clear(records);

        for (int s = count - 1; s >= 0; s--)
        {
            final CacheSegment segment = segments[s];
            final UnsafeBuffer log = segment.log().buffer();
            final boolean expiring = s < frozen && segment.frozenAt() < now - deleteRetentionMs;
            int keeps = 0;
            int bytes = 0;
            int hashes = 0;
            int tombstones = 0;
            int drops = 0;
            long last = -1L;
            for (int r = segment.records() - 1; r >= 0; r--)
            {
                final int position = segment.positionAt(r);
                final int keyField = position + CacheEntry.KEY;
                final int keyLength = log.getInt(keyField);
                final int valueField = keyField + CacheHeaders.LENGTH_SIZE + Math.max(keyLength, 0);
                final int valueLength = log.getInt(valueField);
                boolean stays = true;
                boolean tombstone = false;
                if (keyLength != CacheHeaders.NULL_LENGTH)
                {
                    tombstone = valueLength == CacheHeaders.NULL_LENGTH;
                    final int keyHash = hash.of(segment.logBytes(), keyField, CacheHeaders.LENGTH_SIZE + keyLength);
                    stays = add(keyHash, s, position) && !(tombstone && expiring) || s >= frozen;
                }
                if (stays)
                {
                    final int bit = firstRecords[s] + r;
                    live[bit >>> 6] |= 1L << bit;
                    final int headersField = valueField + CacheHeaders.LENGTH_SIZE + Math.max(valueLength, 0);
                    keeps++;
                    bytes += log.getInt(position + CacheEntry.LENGTH);
                    hashes += 1 + log.getInt(headersField);
                    tombstones += tombstone ? 1 : 0;
                    last = Math.max(last, log.getLong(position + CacheEntry.OFFSET));
                }
                else
                {
                    drops++;
                }
            }
            kept[s] = keeps;
            keptBytes[s] = bytes;
            keptHashes[s] = hashes;
            keptTombstones[s] = tombstones;
            dropped[s] = drops;
            lastKept[s] = last;
        }
    }

    /** How many records of the {@code s}-th segment scanned stay. */
    int kept(int s)
    {
        return kept[s];
    }

    /** What the entries that stay of the {@code s}-th segment take in a log. */
    int keptBytes(int s)
    {
        return keptBytes[s];
    }

    /** How many hash index entries the records that stay of the {@code s}-th segment take: their keys and headers. */
    int keptHashes(int s)
    {
        return keptHashes[s];
    }

    /** How many records of the {@code s}-th segment go. */
    int dropped(int s)
    {
        return dropped[s];
    }

    /** The offset of the last record that stays in the {@code s}-th segment, -1 if none does. */
    long lastKept(int s)
    {
        return lastKept[s];
    }

    /**
     * What stays of the segments scanned from {@code from} to {@code to}, excluded, copied into one compacted segment
     * at the first one's base offset, sealed but not yet published nor installed; null if nothing stays. Its
     * tombstones count {@code delete.retention.ms} from the newest freeze among the segments they come from.
     */
    CacheSegment rewrite(Path directory, int from, int to)
    {
        long bytes = 0L;
        int records = 0;
        int hashes = 0;
        long frozenAt = Long.MIN_VALUE;
        long tombstonesFrozenAt = Long.MIN_VALUE;
        for (int s = from; s < to; s++)
        {
            bytes += keptBytes[s];
            records += kept[s];
            hashes += keptHashes[s];
            frozenAt = Math.max(frozenAt, segments[s].frozenAt());
            if (keptTombstones[s] > 0)
            {
                tombstonesFrozenAt = Math.max(tombstonesFrozenAt, segments[s].frozenAt());
            }
        }

        CacheSegment compacted = null;
        if (records > 0)
        {
            final CacheSegment first = segments[from];
            compacted = CacheSegment.compacted(directory, first.baseOffset(), first.createdAt(), (int) bytes, records, hashes);
            for (int s = from; s < to; s++)
            {
                final CacheSegment segment = segments[s];
                final UnsafeBuffer log = segment.log().buffer();
                final int firstRecord = firstRecords[s];
                for (int r = 0, n = segment.records(); r < n; r++)
                {
                    final int bit = firstRecord + r;
                    if ((live[bit >>> 6] & 1L << bit) != 0L)
                    {
                        compacted.copy(log, segment.positionAt(r));
                    }
                }
            }
            compacted.seal(tombstonesFrozenAt != Long.MIN_VALUE ? tombstonesFrozenAt : frozenAt);
        }
        return compacted;
    }

    /** Lets go of the segments of the pass, so that those retired can be collected. */
    void done()
    {
        segments = null;
    }

    /** Clears the marks and the table for {@code records} records, growing them if needed. */
    private void clear(int records)
    {
        final int words = (records + 63) >>> 6;
        if (live.length < words)
        {
            live = new long[Math.max(words, 2 * live.length)];
        }
        else
        {
            Arrays.fill(live, 0, words, 0L);
        }

        // at most half full, so that a probe ends soon
        final int slots = Math.max(16, Integer.highestOneBit(Math.max(records, 1)) << 2);
        if (slotLocations.length < slots)
        {
            slotHashes = new int[slots];
            slotLocations = new long[slots];
        }
        Arrays.fill(slotLocations, 0, slots, EMPTY);
        mask = slots - 1;
    }

    /**
     * Adds the key of the entry at {@code position} of the {@code segment}-th segment: true if it was not met yet, so
     * this is the newest record with that key; false if a newer record has the same key, bytes compared.
     */
    private boolean add(int keyHash, int segment, int position)
    {
        int slot = keyHash & mask;
        boolean added = true;
        long location;
        while (added && (location = slotLocations[slot]) != EMPTY)
        {
            added = slotHashes[slot] != keyHash || !sameKey(location, segment, position);
            slot = (slot + 1) & mask;
        }
        if (added)
        {
            slotHashes[slot] = keyHash;
            slotLocations[slot] = (long) segment << 32 | position;
        }
        return added;
    }

    private boolean sameKey(long location, int segment, int position)
    {
        final UnsafeBuffer log = segments[(int) (location >>> 32)].log().buffer();
        final int keyField = (int) location + CacheEntry.KEY;
        final UnsafeBuffer otherLog = segments[segment].log().buffer();
        final int otherKeyField = position + CacheEntry.KEY;
        final int length = CacheHeaders.LENGTH_SIZE + log.getInt(keyField);
        boolean same = log.getInt(keyField) == otherLog.getInt(otherKeyField);
        int i = CacheHeaders.LENGTH_SIZE;
        for (; same && i + Long.BYTES <= length; i += Long.BYTES)
        {
            same = log.getLong(keyField + i) == otherLog.getLong(otherKeyField + i);
        }
        for (; same && i < length; i++)
        {
            same = log.getByte(keyField + i) == otherLog.getByte(otherKeyField + i);
        }
        return same;
    }
}
