/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import io.zilla.omb.config.Workload;
import org.junit.jupiter.api.Test;

class PayloadsTest
{
    @Test
    void shouldMakeRandomizedPayloadsAsOmbDoesRandomPrefixThenZeros()
    {
        // OMB's randomized files comment the payload file out; a file named anyway is not used, as in OMB
        final Workload workload = Workload.parse("randomized.yaml", String.join("\n",
            "name: randomized",
            "messageSize: 1000",
            "useRandomizedPayloads: true",
            "randomBytesRatio: 0.5",
            "randomizedPayloadPoolSize: 100",
            ""), Path.of("."));

        final List<byte[]> pool = Payloads.pool(workload, 1);

        assertEquals(100, pool.size());
        for (byte[] payload : pool)
        {
            assertEquals(1000, payload.length);
            int nonZeroInPrefix = 0;
            for (int i = 0; i < 500; i++)
            {
                nonZeroInPrefix += payload[i] != 0 ? 1 : 0;
            }
            assertTrue(nonZeroInPrefix > 450, "the first half is random: " + nonZeroInPrefix + " non-zero bytes of 500");
            for (int i = 500; i < 1000; i++)
            {
                assertEquals(0, payload[i], "byte " + i + " of the zero half");
            }
        }
        assertFalse(Arrays.equals(pool.get(0), pool.get(1)), "the variants differ");
    }
}
