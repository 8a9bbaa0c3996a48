/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.filesystem.stream;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.agrona.concurrent.UnsafeBuffer;

/**
 * The part of one file stream that the reader thread works on: the worker fills in a request ({@link #open},
 * {@link #read}, {@link #close}) and hands it over through the reader's queue, the reader performs it (the blocking
 * calls: stat, open, read, close) and hands it back through the worker's queue. Only one side holds it at a time,
 * and the queues' ordered writes make what one side wrote visible to the other. Reused from stream to stream: its
 * chunk buffer is allocated once.
 */
final class FileRead
{
    static final int OPEN = 1;
    static final int READ = 2;
    static final int CLOSE = 3;

    static final int OK = 0;
    static final int NOT_FOUND = 1;
    static final int FAILED = 2;

    private static final Set<OpenOption> READ_ONLY = Set.of(StandardOpenOption.READ);
    private static final Set<OpenOption> READ_ONLY_NO_FOLLOW = Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
    private static final LinkOption[] FOLLOW = new LinkOption[0];
    private static final LinkOption[] NO_FOLLOW = { LinkOption.NOFOLLOW_LINKS };

    // the request, written by the worker
    int op;
    Path location;
    boolean followSymlinks;
    String path;
    boolean payload;
    String requestTag;

    // the result, written by the reader
    int status;
    long size;
    long modifiedTime;
    String tag;
    int chunkLength;

    // what the worker does when the reader hands this back
    Runnable onDone;

    private final ByteBuffer chunk;
    final UnsafeBuffer chunkBuffer;
    private FileChannel channel;
    private long position;

    FileRead(int chunkSize)
    {
        this.chunk = ByteBuffer.allocateDirect(chunkSize);
        this.chunkBuffer = new UnsafeBuffer(chunk);
    }

    /** Whether a file is open, to be closed (by the reader) before this is reused. */
    boolean isOpen()
    {
        return channel != null;
    }

    /** On the reader thread: performs the request. Never throws: a failure is a status. */
    void perform()
    {
        try
        {
            switch (op)
            {
                case OPEN -> open();
                case READ -> read();
                case CLOSE -> close();
                default -> status = FAILED;
            }
        }
        catch (IOException | RuntimeException ex)
        {
            status = op == OPEN ? NOT_FOUND : FAILED;
            if (op != CLOSE)
            {
                closeQuietly();
            }
        }
    }

    private void open() throws IOException
    {
        status = NOT_FOUND;
        final Path real = location.toRealPath();
        final Path file = FilePaths.resolve(real, path, followSymlinks);
        if (file == null)
        {
            return;
        }
        final LinkOption[] links = followSymlinks ? FOLLOW : NO_FOLLOW;
        final BasicFileAttributes attributes = Files.readAttributes(file, BasicFileAttributes.class, links);
        if (!attributes.isRegularFile())
        {
            // a directory (no index file is served), a device, a socket
            return;
        }
        if (payload)
        {
            channel = followSymlinks ? FileChannel.open(file, READ_ONLY) : FileChannel.open(file, READ_ONLY_NO_FOLLOW);
            position = 0L;
            size = channel.size();
        }
        else
        {
            size = attributes.size();
        }
        final long modified = attributes.lastModifiedTime().to(TimeUnit.NANOSECONDS);
        modifiedTime = attributes.lastModifiedTime().toMillis();
        // a strong validator of the bytes served: it changes when the size or the modified time (nanoseconds where
        // the filesystem keeps them) does, as nginx's and Apache's ETags; a rewrite within the same nanosecond and
        // of the same size would keep it (docs/bindings/filesystem.md)
        tag = Long.toHexString(modified) + "-" + Long.toHexString(size);
        status = OK;
    }

    /** Reads the next chunk (up to what the file still owes) from where the last one ended. */
    private void read() throws IOException
    {
        chunk.clear();
        final long owed = size - position;
        chunk.limit((int) Math.min(chunk.capacity(), owed));
        while (chunk.hasRemaining())
        {
            final int read = channel.read(chunk, position + chunk.position());
            if (read < 0)
            {
                break;
            }
        }
        chunkLength = chunk.position();
        position += chunkLength;
        // a file that shrank while it was served owes bytes it no longer has
        status = chunkLength > 0 ? OK : FAILED;
    }

    /** On the worker, when the reader cannot take a close: closes the file here. */
    void closeNow()
    {
        closeQuietly();
    }

    private void close()
    {
        closeQuietly();
        status = OK;
    }

    private void closeQuietly()
    {
        final FileChannel open = channel;
        channel = null;
        if (open != null)
        {
            try
            {
                open.close();
            }
            catch (IOException ex)
            {
                // closing a file opened for reading loses nothing
            }
        }
    }
}
