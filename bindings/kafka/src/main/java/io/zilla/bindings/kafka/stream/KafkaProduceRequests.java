/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.ByteOrder.BIG_ENDIAN;

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
        progress = putLength(buffer, progress, 1, flexible);
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
        progress = putLength(buffer, progress, 1, flexible);
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
        final long topics = readArrayLength(buffer, progress, limit, flexible);
        if (topics > 0)
        {
            progress += sizeofArrayLength(topics, flexible);
            final long name = readStringLength(buffer, progress, limit, flexible);
            if (name >= 0)
            {
                progress += sizeofStringLength(name, flexible) + (int) value(name);
                final long partitions = readArrayLength(buffer, progress, limit, flexible);
                if (partitions > 0)
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

    // the count (flexible: packed with its size, count + 1 on the wire) when at least one, else -1
    private static long readArrayLength(DirectBuffer buffer, int offset, int limit, boolean flexible)
    {
        long result = -1;
        if (flexible)
        {
            final long packed = VarUints.read(buffer, offset, limit);
            result = packed >= 0 && VarUints.value(packed) >= 2 ? packed : -1;
        }
        else if (limit - offset >= Integer.BYTES)
        {
            final int count = buffer.getInt(offset, BIG_ENDIAN);
            result = count >= 1 ? count : -1;
        }
        return result;
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
