/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import io.zilla.omb.config.Workload;

/**
 * The payloads a workload's producers pick from, made once by the coordinator and sent to every worker (OMB's
 * {@code payloadData}): the workload's payload file, or random bytes without one; with {@code useRandomizedPayloads} a
 * pool of {@code randomizedPayloadPoolSize} variants whose first {@code randomBytesRatio} of bytes are random. The
 * worker writes each message's send time into its first 8 bytes.
 */
final class Payloads
{
    private Payloads()
    {
    }

    static List<byte[]> pool(Workload workload, long seed)
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
        final List<byte[]> pool = new ArrayList<>();
        if (workload.useRandomizedPayloads())
        {
            final int randomBytes = (int) Math.ceil(workload.randomBytesRatio() * base.length);
            for (int i = 0; i < workload.randomizedPayloadPoolSize(); i++)
            {
                final byte[] variant = base.clone();
                final byte[] noise = new byte[randomBytes];
                random.nextBytes(noise);
                System.arraycopy(noise, 0, variant, 0, randomBytes);
                pool.add(variant);
            }
        }
        else
        {
            pool.add(base);
        }
        return pool;
    }
}
