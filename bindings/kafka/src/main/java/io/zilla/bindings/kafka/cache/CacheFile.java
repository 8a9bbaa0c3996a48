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
import java.nio.file.StandardCopyOption;

import org.agrona.IoUtil;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * One append-only file of a cached segment, mapped in memory at a fixed capacity. The one writer thread writes into the
 * mapping (no system call per record) and then publishes how far it wrote with an ordered write; readers on other
 * threads read the published limit with a volatile read and never look past it, so they see only whole entries.
 * <p>
 * The file is created sparse: its size is its capacity from the start, but disk blocks are taken only as pages are
 * written. Nothing is ever trimmed, so a reader's mapping always covers what it reads.
 */
final class CacheFile
{
    private static final VarHandle LIMIT;

    static
    {
        try
        {
            LIMIT = MethodHandles.lookup().findVarHandle(CacheFile.class, "limit", int.class);
        }
        catch (ReflectiveOperationException ex)
        {
            throw new ExceptionInInitializerError(ex);
        }
    }

    private final UnsafeBuffer buffer;
    private Path path;
    private volatile int limit;
    private volatile boolean frozen;
    private int position;

    CacheFile(Path path, int capacity)
    {
        this.path = path;
        // native byte order throughout: the files never leave this process, a restart rebuilds them from Kafka
        this.buffer = new UnsafeBuffer(IoUtil.mapNewFile(path.toFile(), capacity, false));
    }

    Path path()
    {
        return path;
    }

    /** The whole mapping: readers read it below {@link #limit()}, the writer writes at {@link #position()}. */
    UnsafeBuffer buffer()
    {
        return buffer;
    }

    int capacity()
    {
        return buffer.capacity();
    }

    /** How far readers may read: every byte below it was written before it was published. */
    int limit()
    {
        return limit;
    }

    /** Where the writer appends next: at or ahead of the limit until it publishes. */
    int position()
    {
        return position;
    }

    boolean fits(int length)
    {
        return length <= buffer.capacity() - position;
    }

    /** Takes the next {@code length} bytes for the writer to fill, and returns where they start. */
    int reserve(int length)
    {
        assert !frozen && fits(length);
        final int start = position;
        position += length;
        return start;
    }

    /** Makes what the writer appended so far visible to readers on other threads. */
    void publish()
    {
        LIMIT.setRelease(this, position);
    }

    /**
     * No more appends: publishes the last of them, then says so. A reader that reads {@link #frozen()} as true and the
     * limit after it has the final limit. The file keeps its size: nothing is trimmed.
     */
    void freeze()
    {
        publish();
        frozen = true;
    }

    boolean frozen()
    {
        return frozen;
    }

    /**
     * Unlinks the file. The mapping stays: a reader on another thread may still be reading it (it read the segment list
     * just before the segment left it), and reading an unlinked file's mapping is safe, while reading an unmapped
     * address would crash the process. The file system frees the blocks only once the mapping goes, see
     * {@link #unmap()}.
     */
    void delete()
    {
        try
        {
            Files.deleteIfExists(path);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Gives the file its final name (the writer, before anyone else may delete or create a file of that name): the
     * cleaner writes a segment under a temporary name while the one it replaces still holds the final one.
     */
    void rename(Path target)
    {
        try
        {
            Files.move(path, target, StandardCopyOption.ATOMIC_MOVE);
            path = target;
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Unmaps the file, which lets the file system free an unlinked file's blocks at once. Only the partition's writer
     * calls it, once no cursor pins the segment (see {@link CachePartition}): nothing reads this buffer afterwards.
     * Left to the garbage collector instead, the mapping would live until the buffer is found unreachable, which on a
     * data path that allocates nothing can take hours, and the disk would fill with evicted segments.
     */
    void unmap()
    {
        IoUtil.unmap(buffer.byteBuffer());
    }
}
