/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;

import io.zilla.omb.config.KeyDistributorType;
import io.zilla.omb.config.Workload;

/**
 * The payloads and keys of one producer. The payload is the workload's payload file, or random bytes without one;
 * with {@code useRandomizedPayloads} it is a pool of {@code randomizedPayloadPoolSize} variants whose first
 * {@code randomBytesRatio} of bytes are random. Every message then gets the send time in its first 8 bytes.
 */
final class Payloads
{
    private static final int KEYS = 10_000;

    private final byte[][] pool;
    private final KeyDistributorType keyDistributor;
    private final List<Optional<String>> keys;
    private int nextPayload;
    private int nextKey;

    Payloads(Workload workload, long seed)
    {
        final Random random = new Random(seed);
        final byte[] base = new byte[workload.messageSize()];
        if (workload.payloadFile() != null)
        {
            try
            {
                System.arraycopy(Files.readAllBytes(workload.payloadFile()), 0, base, 0, base.length);
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        else
        {
            random.nextBytes(base);
        }
        if (workload.useRandomizedPayloads())
        {
            final int randomBytes = (int) Math.ceil(workload.randomBytesRatio() * base.length);
            pool = new byte[workload.randomizedPayloadPoolSize()][];
            for (int i = 0; i < pool.length; i++)
            {
                final byte[] variant = base.clone();
                final byte[] noise = new byte[randomBytes];
                random.nextBytes(noise);
                System.arraycopy(noise, 0, variant, 0, randomBytes);
                pool[i] = variant;
            }
        }
        else
        {
            pool = new byte[][] {base};
        }
        this.keyDistributor = workload.keyDistributor();
        this.keys = new ArrayList<>();
        if (keyDistributor != KeyDistributorType.NO_KEY)
        {
            for (int i = 0; i < KEYS; i++)
            {
                keys.add(Optional.of(Long.toString(random.nextLong() & Long.MAX_VALUE, Character.MAX_RADIX)));
            }
        }
    }

    /** A fresh payload stamped with {@code sendNanos}; the driver may keep it. */
    byte[] next(long sendNanos)
    {
        final byte[] payload = pool[nextPayload].clone();
        nextPayload = nextPayload + 1 == pool.length ? 0 : nextPayload + 1;
        stamp(payload, sendNanos);
        return payload;
    }

    Optional<String> nextKey()
    {
        switch (keyDistributor)
        {
            case KEY_ROUND_ROBIN:
                nextKey = nextKey + 1 == KEYS ? 0 : nextKey + 1;
                return keys.get(nextKey);
            case RANDOM_NANO:
                return keys.get((int) ((System.nanoTime() & Long.MAX_VALUE) % KEYS));
            default:
                return Optional.empty();
        }
    }

    static void stamp(byte[] payload, long nanos)
    {
        for (int i = 0; i < Long.BYTES; i++)
        {
            payload[i] = (byte) (nanos >>> (56 - 8 * i));
        }
    }

    static long stamp(byte[] payload)
    {
        long nanos = 0;
        for (int i = 0; i < Long.BYTES; i++)
        {
            nanos = (nanos << 8) | (payload[i] & 0xff);
        }
        return nanos;
    }
}
