/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

import java.util.Arrays;

import io.zilla.specs.flyweight.Varints;
import io.zilla.specs.kafka.codec.VarUints;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The Produce request body around one record batch of one partition, and the error of that partition in the
 * response, written and read by hand: the batch bytes are copied once, nothing is allocated (kafka-clients'
 * {@code ProduceRequestData} would want the batch as a heap {@code MemoryRecords}). Versions 3 (the first with record
 * batch v2) to 12; 9 and up are flexible (compact strings and arrays, tagged fields); 13 names topics by id and is
 * not spoken.
 */
final class KafkaProduceRequests
{
    static final short MIN_VERSION = 3;
    static final short MAX_VERSION = 12;

    /** What a response reader returns for a body it cannot read. */
    static final int MALFORMED = Integer.MIN_VALUE;

    /** The bytes of a Produce request besides its batch and topic name, its request header included, at most. */
    static final int ENVELOPE_MAX = 64;

    private static final short FLEXIBLE_VERSION = 9;

    private KafkaProduceRequests()
    {
    }

    /**
     * Writes a Produce body for one batch of one partition, without a transactional id.
     *
     * @return the body's limit, or {@link KafkaClientRequest#ENCODE_FAILED} when it does not fit
     */
    static int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit, byte[] topic, short acks,
        int timeoutMs, int partitionId, DirectBuffer batch, int batchOffset, int batchLength)
    {
        int limit = KafkaClientRequest.ENCODE_FAILED;
        if (maxLimit - offset >= ENVELOPE_MAX + topic.length + batchLength)
        {
            int progress = encodeHead(version, buffer, offset, topic, acks, timeoutMs, partitionId, batchLength);
            buffer.putBytes(progress, batch, batchOffset, batchLength);
            progress += batchLength;
            if (version >= FLEXIBLE_VERSION)
            {
                // no tagged fields: of the partition, of the topic, of the request
                buffer.putByte(progress++, (byte) 0);
                buffer.putByte(progress++, (byte) 0);
                buffer.putByte(progress++, (byte) 0);
            }
            limit = progress;
        }
        return limit;
    }

    /**
     * Writes a Produce body up to its batch, for a batch that follows from its own buffer (the request's tail), then
     * {@link #suffixLength} bytes of zeros.
     *
     * @return the limit of what it wrote, or {@link KafkaClientRequest#ENCODE_FAILED} when it does not fit
     */
    static int encodeHead(short version, MutableDirectBuffer buffer, int offset, int maxLimit, byte[] topic, short acks,
        int timeoutMs, int partitionId, int batchLength)
    {
        return maxLimit - offset >= ENVELOPE_MAX + topic.length
            ? encodeHead(version, buffer, offset, topic, acks, timeoutMs, partitionId, batchLength)
            : KafkaClientRequest.ENCODE_FAILED;
    }

    /** What follows the batch of a Produce body at {@code version}: its tagged fields, all zero, when flexible. */
    static int suffixLength(short version)
    {
        return version >= FLEXIBLE_VERSION ? 3 : 0;
    }

    private static int encodeHead(short version, MutableDirectBuffer buffer, int offset, byte[] topic, short acks,
        int timeoutMs, int partitionId, int batchLength)
    {
        final boolean flexible = version >= FLEXIBLE_VERSION;
        int progress = putEnvelope(buffer, offset, acks, timeoutMs, 1, flexible);
        progress = putTopic(buffer, progress, topic, 1, flexible);
        buffer.putInt(progress, partitionId, BIG_ENDIAN);
        progress += Integer.BYTES;
        return putLength(buffer, progress, batchLength, flexible);
    }

    /**
     * The error code of the first partition of the first topic of a Produce response: the only one, as the request
     * named one.
     *
     * @return the error code, or {@link #MALFORMED}
     */
    static int readError(short version, DirectBuffer buffer, int offset, int limit)
    {
        final boolean flexible = version >= FLEXIBLE_VERSION;
        int error = MALFORMED;
        int progress = offset;
        final long topics = readCount(buffer, progress, limit, flexible);
        if (topics >= 0 && value(topics) > 0)
        {
            progress += sizeofArrayLength(topics, flexible);
            final long name = readStringLength(buffer, progress, limit, flexible);
            if (name >= 0)
            {
                progress += sizeofStringLength(name, flexible) + (int) value(name);
                final long partitions = readCount(buffer, progress, limit, flexible);
                if (partitions >= 0 && value(partitions) > 0)
                {
                    progress += sizeofArrayLength(partitions, flexible);
                    if (limit - progress >= Integer.BYTES + Short.BYTES)
                    {
                        error = buffer.getShort(progress + Integer.BYTES, BIG_ENDIAN);
                    }
                }
            }
        }
        return error;
    }

    /** One partition's batch of a Produce request that carries several (a {@link KafkaProduceGroups} group's members). */
    interface PartitionBatch
    {
        byte[] topic();

        int partitionId();

        DirectBuffer batchBuffer();

        int batchOffset();

        int batchLength();
    }

    /** Hears each partition of a Produce response. */
    interface PartitionHandler
    {
        void onPartition(DirectBuffer buffer, int topicOffset, int topicLength, int partitionId, int error);
    }

    /**
     * The size of a Produce body for {@code count} batches, without a transactional id: the batches of one topic must
     * follow each other, each run of them is one topic of the request.
     */
    static int sizeofMany(short version, PartitionBatch[] batches, int count)
    {
        final boolean flexible = version >= FLEXIBLE_VERSION;
        int size = (flexible ? 1 : Short.BYTES) + Short.BYTES + Integer.BYTES + sizeofLength(topics(batches, count), flexible);
        for (int i = 0; i < count; )
        {
            final byte[] topic = batches[i].topic();
            final int run = run(batches, i, count);
            final int name = flexible ? Varints.sizeofUnsigned(topic.length + 1L) : Short.BYTES;
            size += name + topic.length + sizeofLength(run, flexible);
            for (int j = i; j < i + run; j++)
            {
                final int length = batches[j].batchLength();
                size += Integer.BYTES + sizeofLength(length, flexible) + length + (flexible ? 1 : 0);
            }
            size += flexible ? 1 : 0;
            i += run;
        }
        return size + (flexible ? 1 : 0);
    }

    /**
     * Writes a Produce body for {@code count} batches (as {@link #sizeofMany} counts them) from {@code offset}.
     *
     * @return the body's limit
     */
    static int encodeMany(short version, MutableDirectBuffer buffer, int offset, short acks, int timeoutMs,
        PartitionBatch[] batches, int count)
    {
        final boolean flexible = version >= FLEXIBLE_VERSION;
        int progress = putEnvelope(buffer, offset, acks, timeoutMs, topics(batches, count), flexible);
        for (int i = 0; i < count; )
        {
            final int run = run(batches, i, count);
            progress = putTopic(buffer, progress, batches[i].topic(), run, flexible);
            for (int j = i; j < i + run; j++)
            {
                final PartitionBatch batch = batches[j];
                buffer.putInt(progress, batch.partitionId(), BIG_ENDIAN);
                progress += Integer.BYTES;
                progress = putLength(buffer, progress, batch.batchLength(), flexible);
                buffer.putBytes(progress, batch.batchBuffer(), batch.batchOffset(), batch.batchLength());
                progress += batch.batchLength();
                if (flexible)
                {
                    // the partition's tagged fields
                    buffer.putByte(progress++, (byte) 0);
                }
            }
            if (flexible)
            {
                // the topic's tagged fields
                buffer.putByte(progress++, (byte) 0);
            }
            i += run;
        }
        if (flexible)
        {
            // the request's tagged fields
            buffer.putByte(progress++, (byte) 0);
        }
        return progress;
    }

    /**
     * Reads every partition of a Produce response, in its order, to the handler.
     *
     * @return how many partitions it read, or {@link #MALFORMED} (the handler may have heard some before)
     */
    static int readPartitions(short version, DirectBuffer buffer, int offset, int limit, PartitionHandler handler)
    {
        final boolean flexible = version >= FLEXIBLE_VERSION;
        int read = 0;
        int progress = offset;
        final long topics = readCount(buffer, progress, limit, flexible);
        progress = topics < 0 ? -1 : progress + sizeofArrayLength(topics, flexible);
        for (long t = 0; progress >= 0 && t < value(topics); t++)
        {
            final long name = readStringLength(buffer, progress, limit, flexible);
            final int nameOffset = name < 0 ? -1 : progress + sizeofStringLength(name, flexible);
            progress = name < 0 ? -1 : nameOffset + (int) value(name);
            final long partitions = progress < 0 ? -1 : readCount(buffer, progress, limit, flexible);
            progress = partitions < 0 ? -1 : progress + sizeofArrayLength(partitions, flexible);
            for (long p = 0; progress >= 0 && p < value(partitions); p++)
            {
                // index, error_code, base_offset, log_append_time_ms (v2+), log_start_offset (v5+)
                final int fixed = Integer.BYTES + Short.BYTES + (version >= 5 ? 3 : 2) * Long.BYTES;
                if (limit - progress < fixed)
                {
                    progress = -1;
                    break;
                }
                final int partitionId = buffer.getInt(progress, BIG_ENDIAN);
                final int error = buffer.getShort(progress + Integer.BYTES, BIG_ENDIAN);
                progress += fixed;
                if (version >= 8)
                {
                    progress = skipRecordErrors(buffer, progress, limit, flexible);
                    progress = progress < 0 ? -1 : skipNullableString(buffer, progress, limit, flexible);
                }
                progress = progress < 0 || !flexible ? progress : skipTaggedFields(buffer, progress, limit);
                if (progress >= 0)
                {
                    handler.onPartition(buffer, nameOffset, (int) value(name), partitionId, error);
                    read++;
                }
            }
            progress = progress < 0 || !flexible ? progress : skipTaggedFields(buffer, progress, limit);
        }
        return progress < 0 ? MALFORMED : read;
    }

    // record_errors (v8+): batch_index, batch_index_error_message, tagged fields when flexible
    private static int skipRecordErrors(DirectBuffer buffer, int offset, int limit, boolean flexible)
    {
        final long errors = readCount(buffer, offset, limit, flexible);
        int progress = errors < 0 ? -1 : offset + sizeofArrayLength(errors, flexible);
        for (long e = 0; progress >= 0 && e < value(errors); e++)
        {
            progress = limit - progress < Integer.BYTES ? -1
                : skipNullableString(buffer, progress + Integer.BYTES, limit, flexible);
            progress = progress < 0 || !flexible ? progress : skipTaggedFields(buffer, progress, limit);
        }
        return progress;
    }

    private static int skipNullableString(DirectBuffer buffer, int offset, int limit, boolean flexible)
    {
        int progress = -1;
        if (flexible)
        {
            final long packed = VarUints.read(buffer, offset, limit);
            final long length = packed < 0 ? -1 : Math.max(VarUints.value(packed) - 1, 0);
            progress = packed < 0 || offset + VarUints.sizeOf(packed) + length > limit ? -1
                : offset + VarUints.sizeOf(packed) + (int) length;
        }
        else if (limit - offset >= Short.BYTES)
        {
            final int length = Math.max(buffer.getShort(offset, BIG_ENDIAN), 0);
            progress = offset + Short.BYTES + length <= limit ? offset + Short.BYTES + length : -1;
        }
        return progress;
    }

    private static int skipTaggedFields(DirectBuffer buffer, int offset, int limit)
    {
        final long count = VarUints.read(buffer, offset, limit);
        int progress = count < 0 ? -1 : offset + VarUints.sizeOf(count);
        for (long f = 0; progress >= 0 && f < VarUints.value(count); f++)
        {
            final long tag = VarUints.read(buffer, progress, limit);
            progress = tag < 0 ? -1 : progress + VarUints.sizeOf(tag);
            final long size = progress < 0 ? -1 : VarUints.read(buffer, progress, limit);
            progress = size < 0 || progress + VarUints.sizeOf(size) + VarUints.value(size) > limit ? -1
                : progress + VarUints.sizeOf(size) + (int) VarUints.value(size);
        }
        return progress;
    }

    // an array's count, zero allowed (flexible: packed with its size, count + 1 on the wire), else -1
    private static long readCount(DirectBuffer buffer, int offset, int limit, boolean flexible)
    {
        long result = -1;
        if (flexible)
        {
            final long packed = VarUints.read(buffer, offset, limit);
            result = packed >= 0 && VarUints.value(packed) >= 1 ? packed - 1 : -1;
        }
        else if (limit - offset >= Integer.BYTES)
        {
            final int count = buffer.getInt(offset, BIG_ENDIAN);
            result = count >= 0 ? count : -1;
        }
        return result;
    }

    private static int topics(PartitionBatch[] batches, int count)
    {
        int topics = 0;
        for (int i = 0; i < count; i += run(batches, i, count))
        {
            topics++;
        }
        return topics;
    }

    // how many batches from the i-th name its topic
    private static int run(PartitionBatch[] batches, int from, int count)
    {
        final byte[] topic = batches[from].topic();
        int to = from + 1;
        while (to < count && Arrays.equals(batches[to].topic(), topic))
        {
            to++;
        }
        return to - from;
    }

    private static int sizeofLength(int count, boolean flexible)
    {
        return flexible ? Varints.sizeofUnsigned(count + 1L) : Integer.BYTES;
    }

    // a null transactional id, acks, the timeout and the count of topics
    private static int putEnvelope(MutableDirectBuffer buffer, int offset, short acks, int timeoutMs, int topics,
        boolean flexible)
    {
        int progress = offset;
        if (flexible)
        {
            // a null compact string
            buffer.putByte(progress++, (byte) 0);
        }
        else
        {
            buffer.putShort(progress, (short) -1, BIG_ENDIAN);
            progress += Short.BYTES;
        }
        buffer.putShort(progress, acks, BIG_ENDIAN);
        progress += Short.BYTES;
        buffer.putInt(progress, timeoutMs, BIG_ENDIAN);
        progress += Integer.BYTES;
        return putLength(buffer, progress, topics, flexible);
    }

    // a topic's name and the count of its partitions
    private static int putTopic(MutableDirectBuffer buffer, int offset, byte[] topic, int partitions, boolean flexible)
    {
        int progress = offset;
        if (flexible)
        {
            progress = Varints.putUnsigned(buffer, progress, topic.length + 1L);
        }
        else
        {
            buffer.putShort(progress, (short) topic.length, BIG_ENDIAN);
            progress += Short.BYTES;
        }
        buffer.putBytes(progress, topic);
        progress += topic.length;
        return putLength(buffer, progress, partitions, flexible);
    }

    // an array's count or the records' size: flexible versions' compact form (n + 1, unsigned varint), else an INT32
    private static int putLength(MutableDirectBuffer buffer, int offset, int count, boolean flexible)
    {
        int progress = offset;
        if (flexible)
        {
            progress = Varints.putUnsigned(buffer, progress, count + 1L);
        }
        else
        {
            buffer.putInt(progress, count, BIG_ENDIAN);
            progress += Integer.BYTES;
        }
        return progress;
    }

    private static int sizeofArrayLength(long read, boolean flexible)
    {
        return flexible ? VarUints.sizeOf(read) : Integer.BYTES;
    }

    // a non-null string's length, flexible: packed with its size as VarUints.read gives it, length + 1 on the wire
    private static long readStringLength(DirectBuffer buffer, int offset, int limit, boolean flexible)
    {
        long result = -1;
        if (flexible)
        {
            final long packed = VarUints.read(buffer, offset, limit);
            if (packed >= 0 && VarUints.value(packed) >= 1)
            {
                final long length = VarUints.value(packed) - 1;
                result = offset + VarUints.sizeOf(packed) + length <= limit
                    ? ((long) VarUints.sizeOf(packed) << 32) | length
                    : -1;
            }
        }
        else if (limit - offset >= Short.BYTES)
        {
            final int length = buffer.getShort(offset, BIG_ENDIAN);
            result = length >= 0 && offset + Short.BYTES + length <= limit ? length : -1;
        }
        return result;
    }

    private static int sizeofStringLength(long read, boolean flexible)
    {
        return flexible ? VarUints.sizeOf(read) : Short.BYTES;
    }

    private static long value(long read)
    {
        return read & 0xffff_ffffL;
    }
}
