/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Random;

import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.Test;

/** The merged stream's partitioner against kafka-clients' own murmur2 and toPositive. */
class KafkaMurmur2Test
{
    @Test
    void shouldHashAsKafkaClientsOverRandomKeys()
    {
        final Random random = new Random(42);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        for (int i = 0; i < 100_000; i++)
        {
            final byte[] key = new byte[random.nextInt(80)];
            random.nextBytes(key);
            // the key at an offset in a larger buffer, as it lies in a frame's extension
            final int offset = random.nextInt(buffer.capacity() - key.length);
            buffer.putBytes(offset, key);
            assertEquals(Utils.murmur2(key), KafkaMurmur2.hash(buffer, offset, key.length), "murmur2 of key " + i);
            final int partitions = 1 + random.nextInt(64);
            assertEquals(Utils.toPositive(Utils.murmur2(key)) % partitions,
                KafkaMurmur2.partition(buffer, offset, key.length, partitions), "partition of key " + i);
        }
    }

    @Test
    void shouldHashTheEmptyKey()
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[8]);
        assertEquals(Utils.murmur2(new byte[0]), KafkaMurmur2.hash(buffer, 3, 0));
    }
}
