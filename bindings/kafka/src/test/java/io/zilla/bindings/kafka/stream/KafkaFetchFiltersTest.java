/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaFetchStreams.fetchBeginEx;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.kafka.test.KafkaFetchStreams.Condition;
import io.zilla.specs.kafka.codec.RecordBatchDecoder;
import io.zilla.specs.kafka.codec.RecordBatchEncoder;
import io.zilla.specs.kafka.codec.RecordCompression;
import io.zilla.specs.kafka.types.codec.RecordHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

/** Filters over decoded records: which records pass, and that testing them allocates nothing. */
class KafkaFetchFiltersTest
{
    private static final int RECORDS = 12;

    private final UnsafeBuffer batch = new UnsafeBuffer(new byte[64 * 1024]);
    private final RecordBatchDecoder decoder = new RecordBatchDecoder();
    private int batchLength;

    @Test
    void shouldPassAnOrOfAnds()
    {
        encode();
        // key k1, or (color red and size even); record i: key k(i % 3) (null when i % 3 == 2), color red when i % 4 == 0
        final KafkaFetchFilters filters = filters(List.of(
            List.of(Condition.key("k1")),
            List.of(Condition.header("color", "red"), Condition.header("size", "even"))));
        assertEquals(List.of(0, 1, 4, 7, 8, 10), passing(filters));
        assertEquals(List.of(0, 3, 6, 9), passing(filters(List.of(List.of(Condition.key("k0"))))));
        assertEquals(List.of(0, 4, 8), passing(filters(List.of(List.of(Condition.header("color", "red"))))));
        assertEquals(List.of(), passing(filters(List.of(List.of(Condition.key("k1"), Condition.key("k0"))))));
        assertEquals(RECORDS, passing(KafkaFetchFilters.NONE).size());
    }

    @Test
    void shouldTestRecordsWithoutAllocating()
    {
        encode();
        final KafkaFetchFilters filters = filters(List.of(
            List.of(Condition.key("k1")),
            List.of(Condition.header("color", "red"), Condition.header("size", "even"))));
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long passed = rounds(filters);
        final long before = threads.getCurrentThreadAllocatedBytes();
        passed += rounds(filters);
        final long allocated = threads.getCurrentThreadAllocatedBytes() - before;

        assertEquals(2L * 1000 * 6, passed);
        assertEquals(0, allocated / 1000, "bytes allocated per round");
    }

    private long rounds(KafkaFetchFilters filters)
    {
        long passed = 0;
        for (int round = 0; round < 1000; round++)
        {
            decoder.wrap(batch, 0, batchLength);
            while (decoder.nextBatch())
            {
                while (decoder.nextRecord())
                {
                    passed += filters.matches(decoder.record()) ? 1 : 0;
                }
            }
        }
        return passed;
    }

    private List<Integer> passing(KafkaFetchFilters filters)
    {
        final List<Integer> passing = new ArrayList<>();
        decoder.wrap(batch, 0, batchLength);
        while (decoder.nextBatch())
        {
            while (decoder.nextRecord())
            {
                if (filters.matches(decoder.record()))
                {
                    passing.add((int) decoder.record().offset());
                }
            }
        }
        return passing;
    }

    private static KafkaFetchFilters filters(List<List<Condition>> filters)
    {
        final byte[] bytes = fetchBeginEx("topic", 0, 0L, false, filters);
        final KafkaBeginExFW beginEx = new KafkaBeginExFW().wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        return KafkaFetchFilters.of(beginEx.fetch().filters());
    }

    private void encode()
    {
        final RecordBatchEncoder encoder = new RecordBatchEncoder();
        final UnsafeBuffer headers = new UnsafeBuffer(new byte[256]);
        encoder.begin(batch, 0, batch.capacity(), RecordCompression.NONE);
        for (int i = 0; i < RECORDS; i++)
        {
            final UnsafeBuffer key = i % 3 == 2 ? null : new UnsafeBuffer(("k" + i % 3).getBytes(UTF_8));
            final UnsafeBuffer value = new UnsafeBuffer(("v" + i).getBytes(UTF_8));
            int limit = header(headers, 0, "size", i % 2 == 0 ? "even" : "odd");
            int count = 1;
            if (i % 4 == 0)
            {
                limit = header(headers, limit, "color", "red");
                count++;
            }
            encoder.append(1_000L + i, key, 0, key != null ? key.capacity() : 0, value, 0, value.capacity(), headers, 0,
                limit, count);
        }
        batchLength = encoder.finish();
        assertTrue(batchLength > 0);
    }

    private static int header(UnsafeBuffer buffer, int offset, String name, String value)
    {
        return new RecordHeaderFW.Builder().wrap(buffer, offset, buffer.capacity())
            .name(name.getBytes(UTF_8))
            .value(value.getBytes(UTF_8))
            .build()
            .limit();
    }
}
