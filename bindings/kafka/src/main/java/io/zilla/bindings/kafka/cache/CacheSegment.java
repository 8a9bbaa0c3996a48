/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A run of a partition's records from {@code baseOffset}, in four files named after it ({@code %019d} and the
 * extension) in the partition's directory:
 * <ul>
 * <li>{@code .log}: the entries, as {@link CacheEntry} lays them out, in offset order;</li>
 * <li>{@code .index}: one 8-byte entry per record, {@code (offset - baseOffset) << 32 | logPosition}, in offset
 *     order, so a seek is a binary search;</li>
 * <li>{@code .hscan}: {@code hash << 32 | logPosition} for the key and for each header of each record, in append
 *     order, for filters on the head, which scan it;</li>
 * <li>{@code .hindex}: written when the segment is frozen, the {@code .hscan} sorted by hash then position, so a
 *     filter on a frozen segment is a binary search. The {@code .hscan} is then deleted.</li>
 * </ul>
 * One writer thread appends and freezes; readers on other threads read what the files published.
 * <p>
 * The cleaner of a compacted partition writes {@link #compacted compacted} segments: frozen from the start, each file
 * sized to the entries it copies into them (no {@code .hscan}), under temporary names ({@code .cleaned} appended)
 * until the segments they replace are retired, then {@link #install installed} under the final names.
 */
final class CacheSegment
{
    static final String LOG = ".log";
    static final String INDEX = ".index";
    static final String HASH_SCAN = ".hscan";
    static final String HASH_INDEX = ".hindex";
    static final String CLEANED = ".cleaned";

    private final Path directory;
    private final long baseOffset;
    private final long createdAt;
    private final CacheFile log;
    private final CacheFile index;
    private final CacheFile hashScan;
    private final boolean compacted;
    private final CacheHeaders headersRO = new CacheHeaders();
    private final CacheHash hash = new CacheHash();
    private final ByteBuffer logBytes;

    private volatile CacheFile hashIndex;
    private volatile boolean deleted;
    private final AtomicInteger pins = new AtomicInteger();
    private long maxTimestamp = Long.MIN_VALUE;
    private long frozenAt = Long.MAX_VALUE;
    private int tombstones;

    /** A head: empty, its files at the capacities of the configuration. */
    CacheSegment(Path directory, long baseOffset, CacheConfig config, long createdAt)
    {
        this.directory = directory;
        this.baseOffset = baseOffset;
        this.createdAt = createdAt;
        this.compacted = false;
        this.log = new CacheFile(file(LOG), config.segmentBytes());
        this.index = new CacheFile(file(INDEX), config.segmentIndexBytes());
        this.hashScan = new CacheFile(file(HASH_SCAN), config.segmentIndexBytes());
        this.logBytes = log.buffer().byteBuffer().duplicate();
    }

    private CacheSegment(Path directory, long baseOffset, long createdAt, int logBytes, int records, int hashes)
    {
        this.directory = directory;
        this.baseOffset = baseOffset;
        this.createdAt = createdAt;
        this.compacted = true;
        this.log = new CacheFile(cleaned(LOG), logBytes);
        this.index = new CacheFile(cleaned(INDEX), records * CacheIndexEntries.SIZE);
        this.hashScan = null;
        this.hashIndex = new CacheFile(cleaned(HASH_INDEX), hashes * CacheIndexEntries.SIZE);
        this.logBytes = log.buffer().byteBuffer().duplicate();
    }

    /**
     * A segment for the cleaner to {@link #copy} entries into, then {@link #seal}: its files take exactly
     * {@code logBytes} of entries, {@code records} index entries and {@code hashes} hash index entries.
     */
    static CacheSegment compacted(Path directory, long baseOffset, long createdAt, int logBytes, int records, int hashes)
    {
        return new CacheSegment(directory, baseOffset, createdAt, logBytes, records, hashes);
    }

    long baseOffset()
    {
        return baseOffset;
    }

    /** When the partition's clock created the segment: {@code segment.ms} counts from there. */
    long createdAt()
    {
        return createdAt;
    }

    /** The newest record's timestamp: {@code retention.ms} removes the segment once this is old enough. */
    long maxTimestamp()
    {
        return maxTimestamp;
    }

    boolean isEmpty()
    {
        return index.position() == 0;
    }

    /** How many records it holds (writer thread: what it appended or copied). */
    int records()
    {
        return index.position() / CacheIndexEntries.SIZE;
    }

    /** Where its {@code record}-th entry starts in the log (writer thread). */
    int positionAt(int record)
    {
        return CacheIndexEntries.position(index.buffer().getLong(record * CacheIndexEntries.SIZE));
    }

    /** Written by the cleaner, sized to what it holds: no more appends, and nothing to trim. */
    boolean compacted()
    {
        return compacted;
    }

    /**
     * When the partition's clock froze it; for a compacted segment, the newest freeze among the segments its tombstones
     * were copied from (among all of them if it holds none): {@code delete.retention.ms} counts from there.
     */
    long frozenAt()
    {
        return frozenAt;
    }

    /** How many of its records are tombstones with a key: {@code delete.retention.ms} applies to them. */
    int tombstones()
    {
        return tombstones;
    }

    /** Its log's bytes, for the writer thread to hash. */
    ByteBuffer logBytes()
    {
        return logBytes;
    }

    /**
     * Whether the record fits: in the log, in the index, in the hash scan, and within the 32 bits that the index
     * keeps of its offset, as Kafka rolls its own segments. The header hashes are counted from the headers' size, at
     * the most that many headers could take (8 bytes of lengths each), so the check needs no walk of the headers.
     */
    boolean canAppend(long offset, int keyLength, int valueLength, int headersSize)
    {
        final long delta = offset - baseOffset;
        return delta >= 0 && delta <= Integer.MAX_VALUE
            && log.fits(CacheEntry.sizeOf(keyLength, valueLength, encodedSize(headersSize)))
            && index.fits(CacheIndexEntries.SIZE)
            && hashScan.fits(hashesFor(headersSize) * CacheIndexEntries.SIZE);
    }

    /** Whether the record would fit an empty segment of this configuration: if not, it never fits. */
    static boolean fitsEmpty(CacheConfig config, int keyLength, int valueLength, int headersSize)
    {
        return CacheEntry.sizeOf(keyLength, valueLength, encodedSize(headersSize)) <= config.segmentBytes()
            && (long) hashesFor(headersSize) * CacheIndexEntries.SIZE <= config.segmentIndexBytes();
    }

    /**
     * Appends a record and publishes it: its log entry, its index entry and its hashes are all written before any
     * limit is published, so a reader that sees the log's new limit sees the rest too. The caller checked
     * {@link #canAppend}; {@code headers}, when not null, were validated and hold {@code headerCount} headers.
     */
    void append(long offset, long timestamp, DirectBuffer key, DirectBuffer value, DirectBuffer headers)
    {
        final int keyLength = key != null ? key.capacity() : CacheHeaders.NULL_LENGTH;
        final int valueLength = value != null ? value.capacity() : CacheHeaders.NULL_LENGTH;
        final int headersSize = encodedSize(headers != null ? headers.capacity() : 0);
        final int length = CacheEntry.sizeOf(keyLength, valueLength, headersSize);

        final UnsafeBuffer buffer = log.buffer();
        final int position = log.reserve(length);
        buffer.putLong(position + CacheEntry.OFFSET, offset);
        buffer.putLong(position + CacheEntry.TIMESTAMP, timestamp);
        buffer.putInt(position + CacheEntry.FLAGS, 0);
        buffer.putInt(position + CacheEntry.LENGTH, length);

        final int keyField = position + CacheEntry.KEY;
        final int valueField = putField(buffer, keyField, key, keyLength);
        final int headersField = putField(buffer, valueField, value, valueLength);
        if (headers != null)
        {
            buffer.putBytes(headersField, headers, 0, headers.capacity());
        }
        else
        {
            buffer.putInt(headersField, 0);
        }

        index.buffer().putLong(index.reserve(CacheIndexEntries.SIZE), (offset - baseOffset) << 32 | position);
        appendHashes(hashScan, buffer, position, keyField, valueField, headersField);
        maxTimestamp = Math.max(maxTimestamp, timestamp);
        tombstones += valueLength == CacheHeaders.NULL_LENGTH && keyLength != CacheHeaders.NULL_LENGTH ? 1 : 0;

        hashScan.publish();
        index.publish();
        log.publish();
    }

    /**
     * Copies one entry whole, offset included, from {@code source}, another segment's log, into this compacted
     * segment, with its index entry and its hashes (the cleaner, before it publishes the segment). Entries come in
     * offset order.
     */
    void copy(DirectBuffer source, int from)
    {
        final int length = source.getInt(from + CacheEntry.LENGTH);
        final UnsafeBuffer buffer = log.buffer();
        final int position = log.reserve(length);
        buffer.putBytes(position, source, from, length);

        final long offset = buffer.getLong(position + CacheEntry.OFFSET);
        final int keyField = position + CacheEntry.KEY;
        final int keyLength = buffer.getInt(keyField);
        final int valueField = keyField + CacheHeaders.LENGTH_SIZE + Math.max(keyLength, 0);
        final int valueLength = buffer.getInt(valueField);
        final int headersField = valueField + CacheHeaders.LENGTH_SIZE + Math.max(valueLength, 0);
        index.buffer().putLong(index.reserve(CacheIndexEntries.SIZE), (offset - baseOffset) << 32 | position);
        appendHashes(hashIndex, buffer, position, keyField, valueField, headersField);
        maxTimestamp = Math.max(maxTimestamp, buffer.getLong(position + CacheEntry.TIMESTAMP));
        tombstones += valueLength == CacheHeaders.NULL_LENGTH && keyLength != CacheHeaders.NULL_LENGTH ? 1 : 0;
    }

    /**
     * The copies are done: sorts the hash index in place and freezes every file, so the segment is whole before the
     * cleaner publishes it. {@code frozenAt} is what {@code delete.retention.ms} counts from for its tombstones.
     */
    void seal(long frozenAt)
    {
        final CacheFile hashIndex = this.hashIndex;
        CacheIndexEntries.sort(hashIndex.buffer(), hashIndex.position() / CacheIndexEntries.SIZE);
        hashIndex.freeze();
        index.freeze();
        log.freeze();
        this.frozenAt = frozenAt;
    }

    /** Gives a compacted segment's files their final names, once the segment of the same base offset is retired. */
    void install()
    {
        log.rename(file(LOG));
        index.rename(file(INDEX));
        hashIndex.rename(file(HASH_INDEX));
    }

    /**
     * No more appends, from {@code now} by the partition's clock: the log and the index keep their size, and the hash
     * scan is sorted into the hash index, which readers pick up through its volatile field; the hash scan's file is
     * then unlinked, and the partition unmaps it once no cursor pins the segment (a cursor that read no hash index yet
     * may still be scanning it).
     */
    void freeze(long now)
    {
        frozenAt = now;
        hashScan.freeze();
        final int hashesSize = hashScan.limit();
        final CacheFile sorted = new CacheFile(file(HASH_INDEX), Math.max(hashesSize, CacheIndexEntries.SIZE));
        sorted.buffer().putBytes(0, hashScan.buffer(), 0, hashesSize);
        CacheIndexEntries.sort(sorted.buffer(), hashesSize / CacheIndexEntries.SIZE);
        sorted.reserve(hashesSize);
        sorted.freeze();
        index.freeze();
        log.freeze();
        hashIndex = sorted;
        hashScan.delete();
    }

    boolean frozen()
    {
        return log.frozen();
    }

    /** Takes the segment out of use: cursors still in it move on at their next step, and its files are unlinked. */
    void delete()
    {
        deleted = true;
        log.delete();
        index.delete();
        if (hashScan != null)
        {
            hashScan.delete();
        }
        final CacheFile hashIndex = this.hashIndex;
        if (hashIndex != null)
        {
            hashIndex.delete();
        }
    }

    /**
     * A cursor enters the segment. It checks {@link #deleted()} after, and the writer marks it deleted before it reads
     * the pins: so either the writer sees the pin, or the cursor the mark (atomics are sequentially consistent).
     */
    void pin()
    {
        pins.incrementAndGet();
    }

    /** A cursor has left the segment, and reads nothing of it any more. */
    void unpin()
    {
        pins.decrementAndGet();
    }

    /** Whether some cursor is in the segment: read by the writer after it marked the segment deleted. */
    boolean pinned()
    {
        return pins.get() > 0;
    }

    boolean deleted()
    {
        return deleted;
    }

    /** The size of its files on disk: their capacities, as nothing is trimmed. */
    long footprint()
    {
        final CacheFile hashIndex = this.hashIndex;
        return log.capacity() + index.capacity() + (hashIndex != null ? hashIndex.capacity() : hashScan.capacity());
    }

    /** What {@link #footprint()} will be once frozen: the hash scan is replaced by a hash index of what it holds. */
    long frozenFootprint()
    {
        return log.capacity() + index.capacity() + Math.max(hashScan.position(), CacheIndexEntries.SIZE);
    }

    CacheFile log()
    {
        return log;
    }

    CacheFile index()
    {
        return index;
    }

    CacheFile hashScan()
    {
        return hashScan;
    }

    /** The hash index once frozen (from the start for a compacted one), else null: filters scan the hash scan. */
    CacheFile hashIndex()
    {
        return hashIndex;
    }

    /**
     * Where the first entry at or after {@code offset} starts, among the entries published when the log's limit was
     * {@code logLimit}; or where the next one will start if none of those is.
     */
    int positionOf(long offset, int logLimit)
    {
        final long delta = Math.max(offset - baseOffset, 0L);
        int position = 0;
        if (delta <= Integer.MAX_VALUE)
        {
            final int count = index.limit() / CacheIndexEntries.SIZE;
            final UnsafeBuffer entries = index.buffer();
            final int found = CacheIndexEntries.lowerBound(entries, count, delta << 32);
            position = found < count
                ? CacheIndexEntries.position(entries.getLong(found * CacheIndexEntries.SIZE))
                : logLimit;
        }
        else
        {
            position = logLimit;
        }
        return Math.min(position, logLimit);
    }

    /** The hashes of the key and of each header of the entry at {@code position}, appended to {@code hashes}. */
    private void appendHashes(
        CacheFile hashes,
        UnsafeBuffer buffer,
        int position,
        int keyField,
        int valueField,
        int headersField)
    {
        appendHash(hashes, keyField, valueField - keyField, position);
        final CacheHeaders headersRO = this.headersRO.wrap(buffer, headersField);
        while (headersRO.next())
        {
            appendHash(hashes, headersRO.encodingOffset(), headersRO.encodingLength(), position);
        }
    }

    private void appendHash(CacheFile hashes, int field, int length, int position)
    {
        final int hash = this.hash.of(logBytes, field, length);
        hashes.buffer().putLong(hashes.reserve(CacheIndexEntries.SIZE), CacheHash.entry(hash, position));
    }

    private Path file(String extension)
    {
        return directory.resolve(String.format("%019d%s", baseOffset, extension));
    }

    private Path cleaned(String extension)
    {
        return file(extension + CLEANED);
    }

    private static int putField(UnsafeBuffer buffer, int field, DirectBuffer bytes, int length)
    {
        buffer.putInt(field, length);
        if (length > 0)
        {
            buffer.putBytes(field + CacheHeaders.LENGTH_SIZE, bytes, 0, length);
        }
        return field + CacheHeaders.LENGTH_SIZE + Math.max(length, 0);
    }

    private static int encodedSize(int headersSize)
    {
        return Math.max(headersSize, CacheHeaders.COUNT_SIZE);
    }

    private static int hashesFor(int headersSize)
    {
        return 1 + Math.max(headersSize - CacheHeaders.COUNT_SIZE, 0) / (2 * CacheHeaders.LENGTH_SIZE);
    }
}
