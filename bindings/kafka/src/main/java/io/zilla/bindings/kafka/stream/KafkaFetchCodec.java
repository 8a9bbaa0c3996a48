/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import java.util.Arrays;

import io.zilla.specs.kafka.codec.TaggedFields;
import io.zilla.specs.kafka.codec.VarUints;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Fetch v12 (flexible, topic names; v13+ needs topic ids) for one partition, written and read by hand: a Fetch is on
 * the data path, so its bodies are neither copied to the heap nor read into kafka-clients' message objects. The
 * response is read in place: the partition's error, high watermark, last stable offset, aborted transactions (into
 * reused arrays) and where its records bytes lie.
 */
final class KafkaFetchCodec
{
    static final short VERSION = 12;

    static final int MALFORMED = -1;

    private final TaggedFields taggedFields = new TaggedFields();

    private DirectBuffer buffer;
    private short error;
    private long highWatermark;
    private long lastStableOffset;
    private long[] abortedProducerIds = new long[8];
    private long[] abortedFirstOffsets = new long[8];
    private int aborted;
    private int recordsOffset;
    private int recordsLimit;

    /**
     * Writes a sessionless Fetch body for one partition.
     *
     * @return the limit, or {@link KafkaClientRequest#ENCODE_FAILED}
     */
    static int encode(MutableDirectBuffer buffer, int offset, int maxLimit, byte[] topic, int partitionId, long fetchOffset,
        int maxWaitMs, int maxBytes, int isolation)
    {
        int limit = KafkaClientRequest.ENCODE_FAILED;
        if (maxLimit - offset >= 64 + topic.length)
        {
            int progress = offset;
            buffer.putInt(progress, -1, BIG_ENDIAN);                    // replica_id: a consumer
            buffer.putInt(progress + 4, maxWaitMs, BIG_ENDIAN);
            buffer.putInt(progress + 8, 1, BIG_ENDIAN);                 // min_bytes
            buffer.putInt(progress + 12, maxBytes, BIG_ENDIAN);
            buffer.putByte(progress + 16, (byte) isolation);
            buffer.putInt(progress + 17, 0, BIG_ENDIAN);                // session_id: none
            buffer.putInt(progress + 21, -1, BIG_ENDIAN);               // session_epoch: FINAL, sessionless
            progress += 25;
            buffer.putByte(progress++, (byte) 2);                       // topics: compact array of 1
            progress = putCompactLength(buffer, progress, topic.length);
            buffer.putBytes(progress, topic);
            progress += topic.length;
            buffer.putByte(progress++, (byte) 2);                       // partitions: compact array of 1
            buffer.putInt(progress, partitionId, BIG_ENDIAN);
            buffer.putInt(progress + 4, -1, BIG_ENDIAN);                // current_leader_epoch: unknown
            buffer.putLong(progress + 8, fetchOffset, BIG_ENDIAN);
            buffer.putInt(progress + 16, -1, BIG_ENDIAN);               // last_fetched_epoch: unknown
            buffer.putLong(progress + 20, -1L, BIG_ENDIAN);             // log_start_offset: a consumer's
            buffer.putInt(progress + 28, maxBytes, BIG_ENDIAN);         // partition_max_bytes
            progress += 32;
            buffer.putByte(progress++, (byte) 0);                       // partition tagged fields
            buffer.putByte(progress++, (byte) 0);                       // topic tagged fields
            buffer.putByte(progress++, (byte) 1);                       // forgotten_topics_data: empty
            buffer.putByte(progress++, (byte) 1);                       // rack_id: ""
            buffer.putByte(progress++, (byte) 0);                       // tagged fields
            limit = progress;
        }
        return limit;
    }

    /**
     * Reads a Fetch v12 response body that should answer for {@code partitionId} of {@code topic}.
     *
     * @return whether it reads; then {@link #error} (UNKNOWN_TOPIC_OR_PARTITION when the partition is not in it) and,
     *         without error, the rest
     */
    boolean decode(DirectBuffer buffer, int offset, int limit, byte[] topic, int partitionId)
    {
        this.buffer = buffer;
        error = KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION;
        highWatermark = -1L;
        lastStableOffset = -1L;
        aborted = 0;
        recordsOffset = 0;
        recordsLimit = 0;
        boolean found = false;
        int progress = offset + 4;                                       // throttle_time_ms
        if (progress + 6 > limit)
        {
            return false;
        }
        final short topLevelError = buffer.getShort(progress, BIG_ENDIAN);
        progress += 6;                                                   // error_code, session_id
        long topics = VarUints.read(buffer, progress, limit);
        progress = topics < 0 ? MALFORMED : progress + VarUints.sizeOf(topics);
        for (long t = 1; progress != MALFORMED && t < VarUints.value(topics); t++)
        {
            final long nameLength = VarUints.read(buffer, progress, limit);
            progress = nameLength < 0 ? MALFORMED : progress + VarUints.sizeOf(nameLength);
            final int nameSize = (int) VarUints.value(nameLength) - 1;
            if (progress == MALFORMED || nameSize < 0 || progress + nameSize > limit)
            {
                return false;
            }
            final boolean ours = sameName(buffer, progress, nameSize, topic);
            progress += nameSize;
            final long partitions = VarUints.read(buffer, progress, limit);
            progress = partitions < 0 ? MALFORMED : progress + VarUints.sizeOf(partitions);
            for (long p = 1; progress != MALFORMED && p < VarUints.value(partitions); p++)
            {
                if (progress + 37 > limit)
                {
                    return false;
                }
                final int index = buffer.getInt(progress, BIG_ENDIAN);
                final boolean match = ours && index == partitionId && !found;
                if (match)
                {
                    found = true;
                    error = buffer.getShort(progress + 4, BIG_ENDIAN);
                    highWatermark = buffer.getLong(progress + 6, BIG_ENDIAN);
                    lastStableOffset = buffer.getLong(progress + 14, BIG_ENDIAN);
                }
                progress += 30;                                          // ..., log_start_offset
                progress = readAborted(buffer, progress, limit, match);
                progress = progress == MALFORMED || progress + 4 > limit ? MALFORMED : progress + 4; // preferred replica
                progress = readRecords(buffer, progress, limit, match);
                progress = progress == MALFORMED ? MALFORMED : taggedFields.skip(buffer, progress, limit);
            }
            progress = progress == MALFORMED ? MALFORMED : taggedFields.skip(buffer, progress, limit);
        }
        if (!found && topLevelError != 0)
        {
            error = topLevelError;
        }
        return progress != MALFORMED;
    }

    short error()
    {
        return error;
    }

    long highWatermark()
    {
        return highWatermark;
    }

    long lastStableOffset()
    {
        return lastStableOffset;
    }

    int aborted()
    {
        return aborted;
    }

    long abortedProducerId(int index)
    {
        return abortedProducerIds[index];
    }

    long abortedFirstOffset(int index)
    {
        return abortedFirstOffsets[index];
    }

    /** The buffer of the last response read: its records are {@code [recordsOffset(), recordsLimit())}. */
    DirectBuffer buffer()
    {
        return buffer;
    }

    int recordsOffset()
    {
        return recordsOffset;
    }

    int recordsLimit()
    {
        return recordsLimit;
    }

    private int readAborted(DirectBuffer buffer, int offset, int limit, boolean match)
    {
        final long count = VarUints.read(buffer, offset, limit);
        int progress = count < 0 ? MALFORMED : offset + VarUints.sizeOf(count);
        for (long i = 1; progress != MALFORMED && i < VarUints.value(count); i++)
        {
            if (progress + 16 > limit)
            {
                progress = MALFORMED;
            }
            else
            {
                if (match)
                {
                    addAborted(buffer.getLong(progress, BIG_ENDIAN), buffer.getLong(progress + 8, BIG_ENDIAN));
                }
                progress = taggedFields.skip(buffer, progress + 16, limit);
            }
        }
        return progress;
    }

    private int readRecords(DirectBuffer buffer, int offset, int limit, boolean match)
    {
        final long length = offset == MALFORMED ? -1 : VarUints.read(buffer, offset, limit);
        int progress = length < 0 ? MALFORMED : offset + VarUints.sizeOf(length);
        final int size = (int) VarUints.value(length) - 1;
        if (progress != MALFORMED && size > 0)
        {
            if (progress + size > limit)
            {
                progress = MALFORMED;
            }
            else
            {
                if (match)
                {
                    recordsOffset = progress;
                    recordsLimit = progress + size;
                }
                progress += size;
            }
        }
        return progress;
    }

    private void addAborted(long producerId, long firstOffset)
    {
        if (aborted == abortedProducerIds.length)
        {
            abortedProducerIds = Arrays.copyOf(abortedProducerIds, aborted << 1);
            abortedFirstOffsets = Arrays.copyOf(abortedFirstOffsets, aborted << 1);
        }
        abortedProducerIds[aborted] = producerId;
        abortedFirstOffsets[aborted] = firstOffset;
        aborted++;
    }

    private static boolean sameName(DirectBuffer buffer, int offset, int length, byte[] name)
    {
        boolean same = length == name.length;
        for (int i = 0; i < length && same; i++)
        {
            same = buffer.getByte(offset + i) == name[i];
        }
        return same;
    }

    private static int putCompactLength(MutableDirectBuffer buffer, int offset, int length)
    {
        int value = length + 1;
        int progress = offset;
        while ((value & ~0x7f) != 0)
        {
            buffer.putByte(progress++, (byte) ((value & 0x7f) | 0x80));
            value >>>= 7;
        }
        buffer.putByte(progress++, (byte) value);
        return progress;
    }
}
