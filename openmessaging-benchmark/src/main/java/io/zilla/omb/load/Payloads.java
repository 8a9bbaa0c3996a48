/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import io.zilla.omb.config.Workload;

/**
 * The payloads a workload's producers pick from, made once by the coordinator and sent to every worker (OMB's
 * {@code payloadData}): with {@code useRandomizedPayloads}, as OMB, {@code randomizedPayloadPoolSize} variants whose
 * first {@code randomBytesRatio} of bytes are random and the rest zeros; otherwise the payload file, or random bytes
 * without one. The worker writes each message's send time into its first 8 bytes.
 */
final class Payloads
{
    private Payloads()
    {
    }

    static List<byte[]> pool(Workload workload, long seed)
    {
        final Random random = new Random(seed);
        final List<byte[]> pool = new ArrayList<>();
        if (workload.useRandomizedPayloads())
        {
            // as OMB: randomBytesRatio of the message random, the rest zeros (so it compresses as much as OMB's), and no
            // payload file, whatever the workload says
            final int randomBytes = (int) (workload.randomBytesRatio() * workload.messageSize());
            for (int i = 0; i < workload.randomizedPayloadPoolSize(); i++)
            {
                final byte[] variant = new byte[workload.messageSize()];
                final byte[] noise = new byte[randomBytes];
                random.nextBytes(noise);
                System.arraycopy(noise, 0, variant, 0, randomBytes);
                pool.add(variant);
            }
        }
        else if (workload.payloadFile() != null)
        {
            try
            {
                pool.add(Arrays.copyOf(Files.readAllBytes(workload.payloadFile()), workload.messageSize()));
            }
            catch (IOException ex)
            {
                throw new UncheckedIOException(ex);
            }
        }
        else
        {
            final byte[] noise = new byte[workload.messageSize()];
            random.nextBytes(noise);
            pool.add(noise);
        }
        return pool;
    }
}
