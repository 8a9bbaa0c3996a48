/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.zilla.engine.internal.EngineDirectory;
import io.zilla.engine.metrics.Buckets;
import io.zilla.engine.metrics.Histogram;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One worker's histograms, memory-mapped so that exporters and {@code zilla metrics} read them while the engine runs,
 * as the counters file is. A 64-byte header (version, capacity in histograms), then a 512-byte metadata record per
 * histogram, then its 256 bytes of values ({@link Histogram}).
 * <p>
 * A metadata record says what it describes, so a reader needs no declarations: a state (0 free, 1 in use: written
 * last, with a release store), the label's length, the number of bucket bounds, the bounds (8 bytes each, at 16) and
 * the label {@code <binding>:<metric>} (UTF-8, at 256). Only the worker writes; records are never freed while it runs.
 */
public final class HistogramsFile implements AutoCloseable
{
    public static final String PREFIX = "histograms";

    /** The longest label a record holds, in UTF-8 bytes. */
    public static final int MAX_LABEL_LENGTH = 256;

    private static final int VERSION = 1;
    private static final int VERSION_OFFSET = 0;
    private static final int CAPACITY_OFFSET = 4;
    private static final int HEADER_LENGTH = 64;
    private static final int METADATA_LENGTH = 512;
    private static final int STATE_OFFSET = 0;
    private static final int LABEL_LENGTH_OFFSET = 4;
    private static final int BOUNDS_COUNT_OFFSET = 8;
    private static final int BOUNDS_OFFSET = 16;
    private static final int LABEL_OFFSET = 256;
    private static final int IN_USE = 1;

    private final MappedByteBuffer mapped;
    private final int capacity;
    private final AtomicBuffer metadata;
    private final AtomicBuffer values;

    private HistogramsFile(MappedByteBuffer mapped)
    {
        this.mapped = mapped;
        this.capacity = new UnsafeBuffer(mapped, 0, HEADER_LENGTH).getInt(CAPACITY_OFFSET);
        this.metadata = new UnsafeBuffer(mapped, HEADER_LENGTH, capacity * METADATA_LENGTH);
        this.values = new UnsafeBuffer(mapped, HEADER_LENGTH + capacity * METADATA_LENGTH, capacity * Histogram.VALUES_LENGTH);
    }

    /** Creates the file for a worker, with room for {@code capacity} histograms. */
    public static HistogramsFile create(EngineDirectory directory, int workerIndex, int capacity)
    {
        final int histograms = Math.max(1, capacity);
        final MappedByteBuffer mapped = directory.map(PREFIX + workerIndex,
            HEADER_LENGTH + (long) histograms * (METADATA_LENGTH + Histogram.VALUES_LENGTH));
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        header.putInt(CAPACITY_OFFSET, histograms);
        header.putIntVolatile(VERSION_OFFSET, VERSION);
        return new HistogramsFile(mapped);
    }

    /** Maps an existing file for a reader in another thread or process; nothing here writes it. */
    public static HistogramsFile open(Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, Files.size(path));
            if (new UnsafeBuffer(mapped, 0, HEADER_LENGTH).getIntVolatile(VERSION_OFFSET) != VERSION)
            {
                IoUtil.unmap(mapped);
                throw new IOException(path + " is not a zilla histograms file (version " + VERSION + ")");
            }
            return new HistogramsFile(mapped);
        }
    }

    public int capacity()
    {
        return capacity;
    }

    /** Writes record {@code index}'s description and returns its histogram; on the worker, once per record. */
    Histogram allocate(int index, byte[] label, Buckets buckets)
    {
        final int at = index * METADATA_LENGTH;
        metadata.putInt(at + LABEL_LENGTH_OFFSET, label.length);
        final int bounds = buckets.count() - 1;
        metadata.putInt(at + BOUNDS_COUNT_OFFSET, bounds);
        for (int i = 0; i < bounds; i++)
        {
            metadata.putLong(at + BOUNDS_OFFSET + i * Long.BYTES, buckets.bound(i));
        }
        metadata.putBytes(at + LABEL_OFFSET, label);
        values.setMemory(index * Histogram.VALUES_LENGTH, Histogram.VALUES_LENGTH, (byte) 0);
        metadata.putIntRelease(at + STATE_OFFSET, IN_USE);
        return new Histogram(values, index * Histogram.VALUES_LENGTH, buckets);
    }

    /** What a reader gets for each histogram in use. */
    @FunctionalInterface
    public interface Visitor
    {
        /**
         * @param label  {@code <binding>:<metric>}
         * @param bounds the buckets' upper bounds, the last bucket's (+Inf) left out
         * @param counts the count of each bucket, {@code bounds.length + 1} of them
         * @param sum    the sum of the recorded values
         */
        void accept(String label, long[] bounds, long[] counts, long sum);
    }

    /** Reads every histogram in use, its values as they are now (each value whole, not all at one instant). */
    public void forEach(Visitor visitor)
    {
        for (int index = 0; index < capacity; index++)
        {
            final int at = index * METADATA_LENGTH;
            if (metadata.getIntAcquire(at + STATE_OFFSET) != IN_USE)
            {
                continue;
            }
            final int labelLength = metadata.getInt(at + LABEL_LENGTH_OFFSET);
            final int boundsCount = metadata.getInt(at + BOUNDS_COUNT_OFFSET);
            if (labelLength < 0 || labelLength > MAX_LABEL_LENGTH || boundsCount < 1 || boundsCount > Buckets.MAX_BOUNDS)
            {
                continue;
            }
            final byte[] label = new byte[labelLength];
            metadata.getBytes(at + LABEL_OFFSET, label);
            final long[] bounds = new long[boundsCount];
            for (int i = 0; i < boundsCount; i++)
            {
                bounds[i] = metadata.getLong(at + BOUNDS_OFFSET + i * Long.BYTES);
            }
            final int valuesAt = index * Histogram.VALUES_LENGTH;
            final long[] counts = new long[boundsCount + 1];
            for (int i = 0; i < counts.length; i++)
            {
                counts[i] = values.getLongVolatile(valuesAt + i * Long.BYTES);
            }
            final long sum = values.getLongVolatile(valuesAt + Histogram.SUM_INDEX * Long.BYTES);
            visitor.accept(new String(label, UTF_8), bounds, counts, sum);
        }
    }

    @Override
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
