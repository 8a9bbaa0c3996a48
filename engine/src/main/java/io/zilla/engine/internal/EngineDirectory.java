/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import io.zilla.engine.FileErrors;
import org.agrona.IoUtil;

/**
 * The engine directory ({@code zilla.engine.directory}): the rings, counters and events that one engine maps there,
 * the lock that says which engine owns it, and the {@code ready} file that says that engine has attached every
 * binding. The engine that takes the lock owns the files: it removes what an earlier engine left (after a clean stop
 * or a kill -9 alike) before it maps its own. Until then a stopped engine's files stay, so that {@code zilla metrics}
 * can still read its counters.
 */
public final class EngineDirectory implements AutoCloseable
{
    public static final String LOCK_FILE = "lock";
    public static final String READY_FILE = "ready";

    // what an engine maps here; the lock file is not among them: it is the one file that two engines share
    private static final Pattern ENGINE_FILES = Pattern.compile("(data|counters|histograms)\\d+|events|" + READY_FILE);

    private final Path directory;
    private FileChannel lockChannel;
    private FileLock lock;

    private EngineDirectory(Path directory)
    {
        this.directory = directory;
    }

    /**
     * Takes the directory for this engine: creates it, locks it (a lock the system releases when the process dies, so a
     * kill -9 leaves none behind), and removes the files an earlier engine left there.
     *
     * @throws IllegalStateException when another engine holds the lock
     * @throws UncheckedIOException naming the directory or file that cannot be used, and why
     */
    public static EngineDirectory lock(Path directory)
    {
        final EngineDirectory owned = new EngineDirectory(directory);
        owned.takeLock();
        try
        {
            owned.removePrevious();
        }
        catch (RuntimeException ex)
        {
            owned.close();
            throw ex;
        }
        return owned;
    }

    public Path path()
    {
        return directory;
    }

    /**
     * Maps a new file of {@code length} zeroed bytes. The bytes are written, not only reserved, so that a full disk
     * fails here and not with a fault on a worker's first write to the mapping.
     */
    public MappedByteBuffer map(String name, long length)
    {
        final Path file = directory.resolve(name);
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
            StandardOpenOption.WRITE))
        {
            IoUtil.fill(channel, 0, length, (byte) 0);
            return channel.map(FileChannel.MapMode.READ_WRITE, 0, length);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException("cannot create engine file " + file + ": " + FileErrors.describe(ex), ex);
        }
    }

    /** Writes the {@code ready} file (this process's id), which health checks test for. */
    public void ready()
    {
        final Path ready = directory.resolve(READY_FILE);
        try
        {
            Files.writeString(ready, ProcessHandle.current().pid() + "\n", StandardCharsets.US_ASCII);
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException("cannot create engine file " + ready + ": " + FileErrors.describe(ex), ex);
        }
    }

    /** Removes the {@code ready} file, if there is one: the engine is stopping. */
    public void notReady()
    {
        deleteQuietly(directory.resolve(READY_FILE));
    }

    /**
     * Removes the ready file and releases the lock; the rings, counters and events stay for {@code zilla metrics}. The
     * lock file stays too: deleted, an engine that had opened it before could lock the unlinked file while a third one
     * locks a new file of that name, two owners of one directory.
     */
    @Override
    public void close()
    {
        notReady();
        try
        {
            if (lock != null)
            {
                lock.release();
                lock = null;
            }
            if (lockChannel != null)
            {
                lockChannel.close();
                lockChannel = null;
            }
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException("cannot release the engine directory " + directory, ex);
        }
    }

    private void takeLock()
    {
        try
        {
            Files.createDirectories(directory);
            lockChannel = FileChannel.open(directory.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            lock = lockChannel.tryLock();
            if (lock == null)
            {
                lockChannel.close();
                lockChannel = null;
                throw new IllegalStateException("the engine directory " + directory + " is in use by another zilla");
            }
            lockChannel.truncate(0);
            lockChannel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n").getBytes(StandardCharsets.US_ASCII)));
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException("cannot use engine directory " + directory + ": " + FileErrors.describe(ex), ex);
        }
    }

    /**
     * Unlinks, rather than truncates, an earlier engine's files: a {@code zilla metrics} that has one mapped keeps
     * reading its pages, where a truncated file would fault it.
     */
    private void removePrevious()
    {
        final List<Path> previous;
        try (Stream<Path> files = Files.list(directory))
        {
            previous = files.filter(file -> ENGINE_FILES.matcher(file.getFileName().toString()).matches()).toList();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException("cannot list engine directory " + directory + ": " + FileErrors.describe(ex), ex);
        }
        for (Path file : previous)
        {
            try
            {
                Files.deleteIfExists(file);
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException("cannot remove " + file + ", left by an earlier zilla: " + FileErrors.describe(ex),
                    ex);
            }
        }
    }

    private static void deleteQuietly(Path file)
    {
        try
        {
            Files.deleteIfExists(file);
        }
        catch (IOException ex)
        {
            // a ready file that cannot be removed is found stale by the next engine, which removes it at start
        }
    }
}
