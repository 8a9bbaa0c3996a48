/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.metrics;

import java.io.IOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import io.zilla.engine.internal.EngineDirectory;
import org.agrona.IoUtil;
import org.agrona.concurrent.AtomicBuffer;
import org.agrona.concurrent.UnsafeBuffer;
import org.agrona.concurrent.status.CountersReader;

/**
 * One worker's counters, memory-mapped so that another process ({@code zilla metrics}) reads them while the
 * engine runs: a 64-byte header (version, metadata length, values length), agrona's counter metadata, then
 * the values. A counter's label is {@code <binding>:<name>}.
 */
public final class CountersFile implements AutoCloseable
{
    public static final String PREFIX = "counters";

    private static final int VERSION = 1;
    private static final int VERSION_OFFSET = 0;
    private static final int METADATA_LENGTH_OFFSET = 4;
    private static final int VALUES_LENGTH_OFFSET = 8;
    private static final int HEADER_LENGTH = 64;

    private final MappedByteBuffer mapped;
    private final AtomicBuffer metadata;
    private final AtomicBuffer values;

    private CountersFile(MappedByteBuffer mapped)
    {
        this.mapped = mapped;
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        final int metadataLength = header.getInt(METADATA_LENGTH_OFFSET);
        final int valuesLength = header.getInt(VALUES_LENGTH_OFFSET);
        this.metadata = new UnsafeBuffer(mapped, HEADER_LENGTH, metadataLength);
        this.values = new UnsafeBuffer(mapped, HEADER_LENGTH + metadataLength, valuesLength);
    }

    /** Creates the file for a worker, with room for {@code valuesLength} bytes of values. */
    public static CountersFile create(EngineDirectory directory, int workerIndex, int valuesLength)
    {
        final int counters = Math.max(1, valuesLength / CountersReader.COUNTER_LENGTH);
        final int values = counters * CountersReader.COUNTER_LENGTH;
        final int metadataLength = counters * CountersReader.METADATA_LENGTH;
        final MappedByteBuffer mapped = directory.map(PREFIX + workerIndex, HEADER_LENGTH + metadataLength + values);
        final UnsafeBuffer header = new UnsafeBuffer(mapped, 0, HEADER_LENGTH);
        header.putInt(METADATA_LENGTH_OFFSET, metadataLength);
        header.putInt(VALUES_LENGTH_OFFSET, values);
        header.putIntVolatile(VERSION_OFFSET, VERSION);
        return new CountersFile(mapped);
    }

    /** Maps an existing file read-only in spirit (nothing here writes it), for readers in another process. */
    public static CountersFile open(Path path) throws IOException
    {
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE))
        {
            final MappedByteBuffer mapped = channel.map(FileChannel.MapMode.READ_WRITE, 0, Files.size(path));
            if (new UnsafeBuffer(mapped, 0, HEADER_LENGTH).getIntVolatile(VERSION_OFFSET) != VERSION)
            {
                IoUtil.unmap(mapped);
                throw new IOException(path + " is not a zilla counters file (version " + VERSION + ")");
            }
            return new CountersFile(mapped);
        }
    }

    public AtomicBuffer metadata()
    {
        return metadata;
    }

    public AtomicBuffer values()
    {
        return values;
    }

    public CountersReader reader()
    {
        return new CountersReader(metadata, values);
    }

    @Override
    public void close()
    {
        IoUtil.unmap(mapped);
    }
}
