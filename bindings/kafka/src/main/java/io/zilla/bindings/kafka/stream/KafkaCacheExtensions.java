/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.nio.ByteOrder;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.cache.CacheHeaders;
import io.zilla.specs.flyweight.Varints;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes the reply extensions of a cache_client's FETCH and MERGED streams straight from a cache entry, field by field
 * in the layout of {@code kafka_stream.idl} (native byte order): the key, and the headers turned from the cache's
 * encoding (int32 lengths) into {@code KafkaHeader} items (varint lengths), without a builder, a lambda or a copy
 * of the entry. {@code KafkaCacheExtensionsTest} reads what it writes back with the generated flyweights.
 */
final class KafkaCacheExtensions
{
    /** Where {@code deferred} lies in a fetch Data extension: after the type id and the kind. */
    static final int FETCH_DEFERRED_OFFSET = Integer.BYTES + Byte.BYTES;

    /** Where {@code deferred} lies in a merged fetch Data extension: after the type id, the kind and the merged kind. */
    static final int MERGED_DEFERRED_OFFSET = Integer.BYTES + Byte.BYTES + Byte.BYTES;

    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final int MERGED_FETCH = 1;
    private static final int OFFSET_SIZE = Integer.BYTES + 3 * Long.BYTES + Short.BYTES;

    private KafkaCacheExtensions()
    {
    }

    /** The size of one {@code KafkaOffset} without metadata. */
    static int offsetSize()
    {
        return OFFSET_SIZE;
    }

    /** A KafkaDataEx fetch up to the key: deferred 0, the record's offset, the partition's stable offset and watermark. */
    static int fetchDataHead(MutableDirectBuffer buffer, long timestamp, int partitionId, long offset, long stable,
        long latest)
    {
        int limit = head(buffer, KafkaCapability.FETCH.value());
        buffer.putInt(limit, 0, ORDER);
        buffer.putLong(limit + Integer.BYTES, timestamp, ORDER);
        buffer.putLong(limit + Integer.BYTES + Long.BYTES, -1L, ORDER);
        limit += Integer.BYTES + 2 * Long.BYTES;
        return offset(buffer, limit, partitionId, offset, stable, latest);
    }

    /** A KafkaDataEx merged fetch up to its progress array, whose items the caller adds with {@link #offset}. */
    static int mergedDataHead(MutableDirectBuffer buffer, long timestamp, int partitionId, long offset, long stable,
        long latest, int progressCount)
    {
        int limit = head(buffer, KafkaCapability.MERGED.value());
        buffer.putByte(limit++, (byte) MERGED_FETCH);
        buffer.putInt(limit, 0, ORDER);
        buffer.putLong(limit + Integer.BYTES, timestamp, ORDER);
        buffer.putLong(limit + Integer.BYTES + Long.BYTES, -1L, ORDER);
        limit += Integer.BYTES + 2 * Long.BYTES;
        limit = offset(buffer, limit, partitionId, offset, stable, latest);
        buffer.putInt(limit, progressCount, ORDER);
        return limit + Integer.BYTES;
    }

    /** A KafkaFlushEx fetch: the partition's next offset. */
    static int fetchFlush(MutableDirectBuffer buffer, int partitionId, long offset, long stable, long latest)
    {
        return offset(buffer, head(buffer, KafkaCapability.FETCH.value()), partitionId, offset, stable, latest);
    }

    /** A KafkaFlushEx merged up to its progress array, whose items the caller adds with {@link #offset}. */
    static int mergedFlushHead(MutableDirectBuffer buffer, int progressCount)
    {
        final int limit = head(buffer, KafkaCapability.MERGED.value());
        buffer.putInt(limit, progressCount, ORDER);
        return limit + Integer.BYTES;
    }

    /** One KafkaOffset, without metadata. */
    static int offset(MutableDirectBuffer buffer, int limit, int partitionId, long offset, long stable, long latest)
    {
        buffer.putInt(limit, partitionId, ORDER);
        buffer.putLong(limit + Integer.BYTES, offset, ORDER);
        buffer.putLong(limit + Integer.BYTES + Long.BYTES, stable, ORDER);
        buffer.putLong(limit + Integer.BYTES + 2 * Long.BYTES, latest, ORDER);
        buffer.putShort(limit + Integer.BYTES + 3 * Long.BYTES, (short) -1, ORDER);
        return limit + OFFSET_SIZE;
    }

    /** The key as KafkaBytes (null: length -1), then the headers as array32 of KafkaHeader; -1 when they do not fit. */
    static int keyAndHeaders(MutableDirectBuffer buffer, int limit, DirectBuffer key, CacheHeaders headers)
    {
        int at = bytes(buffer, limit, key, 0, key != null ? key.capacity() : -1);
        if (at < 0 || at + Integer.BYTES > buffer.capacity())
        {
            return -1;
        }
        buffer.putInt(at, headers.count(), ORDER);
        at += Integer.BYTES;
        while (at >= 0 && headers.next())
        {
            final DirectBuffer name = headers.name();
            at = bytes(buffer, at, name, 0, name.capacity());
            final DirectBuffer value = headers.value();
            if (at >= 0)
            {
                at = bytes(buffer, at, value, 0, value != null ? value.capacity() : -1);
            }
        }
        return at;
    }

    private static int head(MutableDirectBuffer buffer, int kind)
    {
        buffer.putInt(0, KafkaBinding.TYPE_ID, ORDER);
        buffer.putByte(Integer.BYTES, (byte) kind);
        return Integer.BYTES + Byte.BYTES;
    }

    private static int bytes(MutableDirectBuffer buffer, int limit, DirectBuffer value, int offset, int length)
    {
        final long zigZag = Varints.zigZag32(length);
        final int size = Varints.sizeofUnsigned(zigZag);
        if (limit + size + Math.max(length, 0) > buffer.capacity())
        {
            return -1;
        }
        Varints.putUnsigned(buffer, limit, zigZag);
        if (length > 0)
        {
            buffer.putBytes(limit + size, value, offset, length);
        }
        return limit + size + Math.max(length, 0);
    }
}
