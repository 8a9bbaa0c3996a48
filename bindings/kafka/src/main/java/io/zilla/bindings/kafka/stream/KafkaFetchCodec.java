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
 * Fetch v12 (flexible, topic names; v13+ needs topic ids), written and read by hand: a Fetch is on the data path, so
 * its bodies are neither copied to the heap nor read into kafka-clients' message objects. The response is read in
 * place, partition by partition: its error, high watermark, last stable offset, aborted transactions (into reused
 * arrays) and where its records bytes lie.
 */
final class KafkaFetchCodec
{
    static final short VERSION = 12;

    static final int MALFORMED = -1;

    /** A partition in a request: index, leader epoch, offset, last fetched epoch, log start, max bytes, tags. */
    static final int PARTITION_SIZE = 33;

    private final TaggedFields taggedFields = new TaggedFields();

    private DirectBuffer buffer;
    private short topLevelError;
    private short error;
    private long highWatermark;
    private long lastStableOffset;
    private long[] abortedProducerIds = new long[8];
    private long[] abortedFirstOffsets = new long[8];
    private int aborted;
    private int recordsOffset;
    private int recordsLimit;

    /** Hears each partition of a response, its fields readable from the codec during the call. */
    interface PartitionHandler
    {
        void onPartition(DirectBuffer buffer, int topicOffset, int topicLength, int partitionId);
    }

    /** Writes the head of a sessionless Fetch body, up to its topics; returns the limit. */
    static int encodeHead(MutableDirectBuffer buffer, int offset, int maxWaitMs, int maxBytes, int isolation, int topics)
    {
        int progress = offset;
        buffer.putInt(progress, -1, BIG_ENDIAN);                        // replica_id: a consumer
        buffer.putInt(progress + 4, maxWaitMs, BIG_ENDIAN);
        buffer.putInt(progress + 8, 1, BIG_ENDIAN);                     // min_bytes
        buffer.putInt(progress + 12, maxBytes, BIG_ENDIAN);
        buffer.putByte(progress + 16, (byte) isolation);
        buffer.putInt(progress + 17, 0, BIG_ENDIAN);                    // session_id: none
        buffer.putInt(progress + 21, -1, BIG_ENDIAN);                   // session_epoch: FINAL, sessionless
        progress += 25;
        return putCompactLength(buffer, progress, topics);              // topics: compact array
    }

    /** Writes a topic's name and the count of its partitions that follow; returns the limit. */
    static int encodeTopic(MutableDirectBuffer buffer, int offset, byte[] topic, int partitions)
    {
        int progress = putCompactLength(buffer, offset, topic.length);
        buffer.putBytes(progress, topic);
        progress += topic.length;
        return putCompactLength(buffer, progress, partitions);
    }

    /** Writes one partition of a topic; returns the limit. */
    static int encodePartition(MutableDirectBuffer buffer, int offset, int partitionId, long fetchOffset, int maxBytes)
    {
        buffer.putInt(offset, partitionId, BIG_ENDIAN);
        buffer.putInt(offset + 4, -1, BIG_ENDIAN);                      // current_leader_epoch: unknown
        buffer.putLong(offset + 8, fetchOffset, BIG_ENDIAN);
        buffer.putInt(offset + 16, -1, BIG_ENDIAN);                     // last_fetched_epoch: unknown
        buffer.putLong(offset + 20, -1L, BIG_ENDIAN);                   // log_start_offset: a consumer's
        buffer.putInt(offset + 28, maxBytes, BIG_ENDIAN);               // partition_max_bytes
        buffer.putByte(offset + 32, (byte) 0);                          // partition tagged fields
        return offset + PARTITION_SIZE;
    }

    /** Ends a topic: its tagged fields; returns the limit. */
    static int encodeTopicEnd(MutableDirectBuffer buffer, int offset)
    {
        buffer.putByte(offset, (byte) 0);
        return offset + 1;
    }

    /** Ends the body: no forgotten topics, rack id "", no tagged fields; returns the limit. */
    static int encodeTail(MutableDirectBuffer buffer, int offset)
    {
        buffer.putByte(offset, (byte) 1);
        buffer.putByte(offset + 1, (byte) 1);
        buffer.putByte(offset + 2, (byte) 0);
        return offset + 3;
    }

    /** The bytes a topic of {@code partitions} partitions takes in a request, at most. */
    static int sizeofTopic(byte[] topic, int partitions)
    {
        return 5 + topic.length + 5 + partitions * PARTITION_SIZE + 1;
    }

    /**
     * Reads a Fetch v12 response body, and hands each partition to {@code handler}.
     *
     * @return whether it reads whole; {@link #topLevelError} then says whether the request as a whole failed
     */
    boolean decode(DirectBuffer buffer, int offset, int limit, PartitionHandler handler)
    {
        this.buffer = buffer;
        int progress = offset + 4;                                       // throttle_time_ms
        if (progress + 6 > limit)
        {
            return false;
        }
        topLevelError = buffer.getShort(progress, BIG_ENDIAN);
        progress += 6;                                                   // error_code, session_id
        final long topics = VarUints.read(buffer, progress, limit);
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
            final int nameOffset = progress;
            progress += nameSize;
            final long partitions = VarUints.read(buffer, progress, limit);
            progress = partitions < 0 ? MALFORMED : progress + VarUints.sizeOf(partitions);
            for (long p = 1; progress != MALFORMED && p < VarUints.value(partitions); p++)
            {
                if (progress + 37 > limit)
                {
                    return false;
                }
                final int partitionId = buffer.getInt(progress, BIG_ENDIAN);
                error = buffer.getShort(progress + 4, BIG_ENDIAN);
                highWatermark = buffer.getLong(progress + 6, BIG_ENDIAN);
                lastStableOffset = buffer.getLong(progress + 14, BIG_ENDIAN);
                aborted = 0;
                recordsOffset = 0;
                recordsLimit = 0;
                progress += 30;                                          // ..., log_start_offset
                progress = readAborted(buffer, progress, limit);
                progress = progress == MALFORMED || progress + 4 > limit ? MALFORMED : progress + 4; // preferred replica
                progress = readRecords(buffer, progress, limit);
                progress = progress == MALFORMED ? MALFORMED : taggedFields.skip(buffer, progress, limit);
                if (progress != MALFORMED)
                {
                    handler.onPartition(buffer, nameOffset, nameSize, partitionId);
                }
            }
            progress = progress == MALFORMED ? MALFORMED : taggedFields.skip(buffer, progress, limit);
        }
        return progress != MALFORMED;
    }

    /** The response's own error code (a fetch session's), 0 when each partition has its own. */
    short topLevelError()
    {
        return topLevelError;
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

    private int readAborted(DirectBuffer buffer, int offset, int limit)
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
                addAborted(buffer.getLong(progress, BIG_ENDIAN), buffer.getLong(progress + 8, BIG_ENDIAN));
                progress = taggedFields.skip(buffer, progress + 16, limit);
            }
        }
        return progress;
    }

    private int readRecords(DirectBuffer buffer, int offset, int limit)
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
                recordsOffset = progress;
                recordsLimit = progress + size;
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
