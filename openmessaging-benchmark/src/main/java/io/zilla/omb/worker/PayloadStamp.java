/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.worker;

/**
 * The send time in a payload's first 8 bytes (big endian {@link EpochNanos}), for the end-to-end latency: Kafka's record
 * timestamp is whole milliseconds and would hide the sub-millisecond differences a proxy makes on loopback.
 */
public final class PayloadStamp
{
    /** The smallest payload that can carry the stamp. */
    public static final int BYTES = Long.BYTES;

    private PayloadStamp()
    {
    }

    static void write(byte[] payload, long nanos)
    {
        for (int i = 0; i < Long.BYTES; i++)
        {
            payload[i] = (byte) (nanos >>> (56 - 8 * i));
        }
    }

    static long read(byte[] payload)
    {
        long nanos = 0;
        for (int i = 0; i < Long.BYTES; i++)
        {
            nanos = (nanos << 8) | (payload[i] & 0xff);
        }
        return nanos;
    }
}
