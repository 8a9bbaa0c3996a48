/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Strings to buffers and back, headers, and what a partition's directory holds, for the cache's tests. */
final class CacheBuffers
{
    private CacheBuffers()
    {
    }

    static DirectBuffer bytes(String text)
    {
        return text != null ? new UnsafeBuffer(text.getBytes(UTF_8)) : null;
    }

    static String string(DirectBuffer buffer)
    {
        return buffer != null ? buffer.getStringWithoutLengthUtf8(0, buffer.capacity()) : null;
    }

    /** Headers from name, value pairs; a null value stays null. */
    static DirectBuffer headers(String... namesAndValues)
    {
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[1024]);
        final CacheHeadersBuilder builder = new CacheHeadersBuilder().wrap(encoded, 0);
        for (int i = 0; i < namesAndValues.length; i += 2)
        {
            builder.header(bytes(namesAndValues[i]), bytes(namesAndValues[i + 1]));
        }
        return new UnsafeBuffer(encoded, 0, builder.length());
    }

    /** The entry's headers as name, value, name, value... */
    static List<String> headers(CacheEntry entry)
    {
        final List<String> headers = new ArrayList<>();
        final CacheHeaders view = entry.headers();
        while (view.next())
        {
            headers.add(string(view.name()));
            headers.add(string(view.value()));
        }
        return headers;
    }

    /** The sum of the sizes of the files in {@code directory}: a file deleted while listed counts 0. */
    static long directorySize(Path directory)
    {
        long size = 0L;
        try (Stream<Path> files = Files.list(directory))
        {
            for (Path file : (Iterable<Path>) files::iterator)
            {
                try
                {
                    size += Files.size(file);
                }
                catch (NoSuchFileException ex)
                {
                    // evicted between the listing and now
                }
            }
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
        return size;
    }

    static List<String> fileNames(Path directory)
    {
        try (Stream<Path> files = Files.list(directory))
        {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
    }
}
