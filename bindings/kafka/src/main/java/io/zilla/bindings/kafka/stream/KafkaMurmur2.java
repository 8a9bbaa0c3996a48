/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import org.agrona.DirectBuffer;

/**
 * Kafka's default partitioner for a keyed record: murmur2 of the key's bytes, made positive, modulo the partition
 * count, as {@code org.apache.kafka.common.utils.Utils.murmur2} and {@code toPositive} compute it, so that a record
 * lands where a Java client puts it. Reads the key where it lies: nothing is allocated.
 */
final class KafkaMurmur2
{
    private static final int SEED = 0x9747b28c;
    private static final int M = 0x5bd1e995;
    private static final int R = 24;

    private KafkaMurmur2()
    {
    }

    /** The partition of a key of {@code length} bytes at {@code offset}, among {@code partitions}. */
    static int partition(DirectBuffer buffer, int offset, int length, int partitions)
    {
        return toPositive(hash(buffer, offset, length)) % partitions;
    }

    static int toPositive(int number)
    {
        return number & 0x7fffffff;
    }

    static int hash(DirectBuffer buffer, int offset, int length)
    {
        int h = SEED ^ length;
        final int length4 = length >> 2;
        for (int i = 0; i < length4; i++)
        {
            final int i4 = offset + (i << 2);
            int k = (buffer.getByte(i4) & 0xff)
                + ((buffer.getByte(i4 + 1) & 0xff) << 8)
                + ((buffer.getByte(i4 + 2) & 0xff) << 16)
                + ((buffer.getByte(i4 + 3) & 0xff) << 24);
            k *= M;
            k ^= k >>> R;
            k *= M;
            h *= M;
            h ^= k;
        }
        final int tail = offset + (length & ~3);
        switch (length & 3)
        {
            case 3:
                h ^= (buffer.getByte(tail + 2) & 0xff) << 16;
                h ^= (buffer.getByte(tail + 1) & 0xff) << 8;
                h ^= buffer.getByte(tail) & 0xff;
                h *= M;
                break;
            case 2:
                h ^= (buffer.getByte(tail + 1) & 0xff) << 8;
                h ^= buffer.getByte(tail) & 0xff;
                h *= M;
                break;
            case 1:
                h ^= buffer.getByte(tail) & 0xff;
                h *= M;
                break;
            default:
                break;
        }
        h ^= h >>> 13;
        h *= M;
        h ^= h >>> 15;
        return h;
    }
}
