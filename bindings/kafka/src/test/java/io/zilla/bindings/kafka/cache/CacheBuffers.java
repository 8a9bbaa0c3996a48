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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/** Strings to buffers and back, headers, and what a partition's directory holds, for the cache's tests. */
final class CacheBuffers
{
    private static String[] collision;

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

    /**
     * The bytes of this process's mappings of files that were unlinked from {@code directory}: what the file system
     * cannot free until they are unmapped (Linux only; 0 elsewhere).
     */
    static long unlinkedMapped(Path directory) throws IOException
    {
        final Path maps = Path.of("/proc/self/maps");
        long bytes = 0L;
        if (Files.isReadable(maps))
        {
            final String prefix = directory.toAbsolutePath().toString();
            for (String line : Files.readAllLines(maps))
            {
                if (line.endsWith("(deleted)") && line.contains(prefix))
                {
                    final String range = line.substring(0, line.indexOf(' '));
                    final int dash = range.indexOf('-');
                    bytes += Long.parseUnsignedLong(range.substring(dash + 1), 16)
                        - Long.parseUnsignedLong(range.substring(0, dash), 16);
                }
            }
        }
        return bytes;
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

    /** The key's hash as the index keeps it: CRC32C of its int32 length and its bytes. */
    static int hashOfKey(DirectBuffer key)
    {
        final UnsafeBuffer encoded = new UnsafeBuffer(new byte[4 + key.capacity()]);
        encoded.putInt(0, key.capacity());
        encoded.putBytes(4, key, 0, key.capacity());
        return CacheHash.of(encoded, 0, encoded.capacity());
    }

    /**
     * Two different 12-byte keys, {@code key-%08d}, whose encodings share a CRC32C: a birthday search, once per test
     * JVM (key-01371838 and key-02000402 on x86, some 1.5 s: keys that differ in digits only collide later than random
     * ones would). Each candidate is encoded in place, as the log encodes a key (its int32 length in native order, then
     * its bytes), and hashed without allocating.
     */
    static synchronized String[] collidingKeys()
    {
        if (collision == null)
        {
            final byte[] encoded = new byte[4 + 12];
            new UnsafeBuffer(encoded).putInt(0, 12);
            System.arraycopy("key-".getBytes(UTF_8), 0, encoded, 4, 4);
            final CRC32C crc = new CRC32C();
            final Map<Integer, Integer> seen = new HashMap<>();
            for (int i = 0; collision == null; i++)
            {
                for (int digit = 0, n = i; digit < 8; digit++, n /= 10)
                {
                    encoded[encoded.length - 1 - digit] = (byte) ('0' + n % 10);
                }
                crc.reset();
                crc.update(encoded, 0, encoded.length);
                final Integer other = seen.putIfAbsent((int) crc.getValue(), i);
                if (other != null)
                {
                    collision = new String[] {String.format("key-%08d", other), String.format("key-%08d", i)};
                }
            }
        }
        return collision.clone();
    }
}
