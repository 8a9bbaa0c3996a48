/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.DecodedRecord;
import io.zilla.specs.kafka.types.codec.RecordHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaConditionFW;
import io.zilla.specs.kafka.types.stream.KafkaFilterFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A fetch stream's filters, an OR of ANDs of key and header equalities, copied out of its Begin once into flat arrays
 * and one byte array, so that a record is tested against the bytes where it lies, without allocating. No filter: every
 * record passes.
 */
final class KafkaFetchFilters
{
    static final KafkaFetchFilters NONE = new KafkaFetchFilters(0, 0);

    private static final int KEY = 0;
    private static final int HEADER = 1;
    private static final int NULL = -1;

    private final int[] filterEnds;
    private final int[] kinds;
    private final int[] nameOffsets;
    private final int[] nameLengths;
    private final int[] valueOffsets;
    private final int[] valueLengths;
    private UnsafeBuffer bytes = new UnsafeBuffer(new byte[0]);
    private int bytesLimit;
    private int filters;
    private int conditions;

    private KafkaFetchFilters(int filterCount, int conditionCount)
    {
        this.filterEnds = new int[filterCount];
        this.kinds = new int[conditionCount];
        this.nameOffsets = new int[conditionCount];
        this.nameLengths = new int[conditionCount];
        this.valueOffsets = new int[conditionCount];
        this.valueLengths = new int[conditionCount];
    }

    /** The filters of a fetch Begin (once per stream: this allocates). */
    static KafkaFetchFilters of(Array32FW<KafkaFilterFW> filters)
    {
        KafkaFetchFilters result = NONE;
        if (filters != null && filters.count() > 0)
        {
            final int[] counts = new int[2];
            filters.forEach(f ->
            {
                counts[0]++;
                counts[1] += f.conditions().count();
            });
            final KafkaFetchFilters built = new KafkaFetchFilters(counts[0], counts[1]);
            filters.forEach(built::add);
            result = built;
        }
        return result;
    }

    boolean isEmpty()
    {
        return filters == 0;
    }

    /** Whether the record passes: no filter, or every condition of one filter holds. */
    boolean matches(DecodedRecord record)
    {
        boolean matches = filters == 0;
        int condition = 0;
        for (int filter = 0; filter < filters && !matches; filter++)
        {
            boolean all = true;
            final int end = filterEnds[filter];
            for (; condition < end && all; condition++)
            {
                all = kinds[condition] == KEY
                    ? equal(record.key(), nameOffsets[condition], nameLengths[condition])
                    : hasHeader(record, condition);
            }
            condition = end;
            matches = all;
        }
        return matches;
    }

    private boolean hasHeader(DecodedRecord record, int condition)
    {
        boolean found = false;
        record.rewindHeaders();
        while (!found && record.nextHeader())
        {
            final RecordHeaderFW header = record.header();
            found = equal(header.name(), nameOffsets[condition], nameLengths[condition])
                && equal(header.value(), valueOffsets[condition], valueLengths[condition]);
        }
        return found;
    }

    private boolean equal(OctetsFW octets, int offset, int length)
    {
        boolean equal;
        if (octets == null || length == NULL)
        {
            equal = octets == null && length == NULL;
        }
        else
        {
            equal = octets.sizeof() == length;
            final DirectBuffer buffer = octets.buffer();
            final int start = octets.offset();
            for (int i = 0; i < length && equal; i++)
            {
                equal = buffer.getByte(start + i) == bytes.getByte(offset + i);
            }
        }
        return equal;
    }

    private void add(KafkaFilterFW filter)
    {
        filter.conditions().forEach(this::add);
        filterEnds[filters++] = conditions;
    }

    private void add(KafkaConditionFW condition)
    {
        final int index = conditions++;
        if (condition.kind() == KEY)
        {
            kinds[index] = KEY;
            nameOffsets[index] = copy(condition.key());
            nameLengths[index] = condition.key().length();
        }
        else
        {
            final KafkaHeaderFW header = condition.header();
            kinds[index] = HEADER;
            nameOffsets[index] = copy(header.name());
            nameLengths[index] = header.name().length();
            valueOffsets[index] = copy(header.value());
            valueLengths[index] = header.value().length();
        }
    }

    private int copy(KafkaBytesFW value)
    {
        final int offset = bytesLimit;
        final OctetsFW octets = value.value();
        if (octets != null)
        {
            final int length = octets.sizeof();
            if (bytes.capacity() < offset + length)
            {
                final UnsafeBuffer grown = new UnsafeBuffer(new byte[Math.max(64, (offset + length) * 2)]);
                grown.putBytes(0, bytes, 0, offset);
                bytes = grown;
            }
            bytes.putBytes(offset, octets.buffer(), octets.offset(), length);
            bytesLimit += length;
        }
        return offset;
    }
}
