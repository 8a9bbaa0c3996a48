/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/** Whether an engine holds the lock of its directory, as another engine would find it. */
final class EngineLock
{
    private EngineLock()
    {
    }

    /** The directory's lock file is locked now (by another process, or by an engine of this one). */
    static boolean isHeld(Path directory) throws IOException
    {
        final Path file = directory.resolve("lock");
        if (!Files.exists(file))
        {
            return false;
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE))
        {
            final FileLock lock = channel.tryLock();
            if (lock == null)
            {
                return true;
            }
            lock.release();
            return false;
        }
        catch (OverlappingFileLockException ex)
        {
            // an engine of this JVM holds it
            return true;
        }
    }
}
