/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.nio.ByteBuffer;
import java.nio.file.Path;

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
 */
final class CacheSegment
{
    static final String LOG = ".log";
    static final String INDEX = ".index";
    static final String HASH_SCAN = ".hscan";
    static final String HASH_INDEX = ".hindex";

    private final Path directory;
    private final long baseOffset;
    private final long createdAt;
    private final CacheFile log;
    private final CacheFile index;
    private final CacheFile hashScan;
    private final CacheHeaders headersRO = new CacheHeaders();
    private final CacheHash hash = new CacheHash();
    private final ByteBuffer logBytes;

    private volatile CacheFile hashIndex;
    private volatile boolean deleted;
    private long maxTimestamp = Long.MIN_VALUE;

    CacheSegment(Path directory, long baseOffset, CacheConfig config, long createdAt)
    {
        this.directory = directory;
        this.baseOffset = baseOffset;
        this.createdAt = createdAt;
        this.log = new CacheFile(file(LOG), config.segmentBytes());
        this.index = new CacheFile(file(INDEX), config.segmentIndexBytes());
        this.hashScan = new CacheFile(file(HASH_SCAN), config.segmentIndexBytes());
        this.logBytes = log.buffer().byteBuffer().duplicate();
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
        appendHash(keyField, valueField - keyField, position);
        final CacheHeaders headersRO = this.headersRO.wrap(buffer, headersField);
        while (headersRO.next())
        {
            appendHash(headersRO.encodingOffset(), headersRO.encodingLength(), position);
        }
        maxTimestamp = Math.max(maxTimestamp, timestamp);

        hashScan.publish();
        index.publish();
        log.publish();
    }

    /**
     * No more appends: the log and the index keep their size, and the hash scan is sorted into the hash index, which
     * readers pick up through its volatile field; the hash scan's file is then unlinked, and the partition unmaps it
     * once no cursor pins the segment (a cursor that read no hash index yet may still be scanning it).
     */
    void freeze()
    {
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
        hashScan.delete();
        final CacheFile hashIndex = this.hashIndex;
        if (hashIndex != null)
        {
            hashIndex.delete();
        }
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

    /** The hash index once frozen, else null: filters scan the hash scan until then. */
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

    private void appendHash(int field, int length, int position)
    {
        final int hash = this.hash.of(logBytes, field, length);
        hashScan.buffer().putLong(hashScan.reserve(CacheIndexEntries.SIZE), CacheHash.entry(hash, position));
    }

    private Path file(String extension)
    {
        return directory.resolve(String.format("%019d%s", baseOffset, extension));
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
