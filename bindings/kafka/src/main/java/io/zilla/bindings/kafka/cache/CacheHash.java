/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.cache;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

import org.agrona.DirectBuffer;

/**
 * The 32-bit hash that the hash indexes keep for a key or a header: CRC32C of its bytes as the log stores them, with
 * their lengths, so that a key and a header, or a name and a value split differently, hash their own bytes. Two
 * different keys may still share a hash: a reader compares the real bytes before it takes an entry.
 * <p>
 * One per writer: it reuses its {@link CRC32C}, and hashes a direct buffer's bytes through a view of it whose position
 * and limit it moves, which the JDK reads by address without allocating.
 */
final class CacheHash
{
    private final CRC32C crc = new CRC32C();

    /** The hash of {@code length} bytes at {@code index} of {@code view}, a direct buffer this hash alone moves. */
    int of(ByteBuffer view, int index, int length)
    {
        view.clear();
        view.limit(index + length);
        view.position(index);
        crc.reset();
        crc.update(view);
        return (int) crc.getValue();
    }

    /** The hash of {@code length} bytes at {@code index} of any buffer (filters and tests: this may allocate). */
    static int of(DirectBuffer buffer, int index, int length)
    {
        final CRC32C crc = new CRC32C();
        final byte[] array = buffer.byteArray();
        if (array != null)
        {
            crc.update(array, buffer.wrapAdjustment() + index, length);
        }
        else
        {
            final ByteBuffer view = buffer.byteBuffer().duplicate();
            view.clear();
            view.limit(buffer.wrapAdjustment() + index + length);
            view.position(buffer.wrapAdjustment() + index);
            crc.update(view);
        }
        return (int) crc.getValue();
    }

    /** An 8-byte hash index entry: the hash, unsigned, in the high half, so that entries sort by hash then position. */
    static long entry(int hash, int position)
    {
        return (hash & 0xFFFF_FFFFL) << 32 | position;
    }
}
