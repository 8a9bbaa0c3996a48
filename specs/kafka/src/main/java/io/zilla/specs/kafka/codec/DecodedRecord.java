/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.flyweight.Varints;
import io.zilla.specs.kafka.types.codec.RecordBatchHeaderFW;
import io.zilla.specs.kafka.types.codec.RecordFW;
import io.zilla.specs.kafka.types.codec.RecordHeaderFW;
import org.agrona.DirectBuffer;

/**
 * The current record of a {@link RecordBatchDecoder}, read in place: in the fetched bytes for an uncompressed
 * batch, in the decoder's scratch buffer for a compressed one. Valid until the decoder moves on; one reused object.
 */
public final class DecodedRecord
{
    private final RecordFW recordRO = new RecordFW();
    private final RecordHeaderFW headerRO = new RecordHeaderFW();

    private long offset;
    private long timestamp;
    private int headersOffset;
    private int headerIndex;
    private int headerPosition;

    /**
     * Decodes the record at {@code position}, ending at {@code limit} at the latest.
     *
     * @return the record's limit, or -1 when it is truncated or malformed, or its length does not add up
     */
    int decode(
        DirectBuffer buffer,
        int position,
        int limit,
        RecordBatchHeaderFW batch)
    {
        int recordLimit = recordRO.decode(buffer, position, limit);
        if (recordLimit >= 0)
        {
            final int lengthLimit = Varints.limit32(buffer, position, limit);
            headersOffset = Varints.limit32(buffer, recordRO.headers().offset(), recordLimit);
            if (lengthLimit + (long) recordRO.length() != recordLimit || !headerNamesPresent())
            {
                recordLimit = -1;
            }
            else
            {
                final boolean logAppendTime = (batch.attributes() & RecordBatches.LOG_APPEND_TIME_FLAG) != 0;
                offset = batch.baseOffset() + recordRO.offsetDelta();
                timestamp = logAppendTime ? batch.maxTimestamp() : batch.baseTimestamp() + recordRO.timestampDelta();
                rewindHeaders();
            }
        }
        return recordLimit;
    }

    private boolean headerNamesPresent()
    {
        // the IDL reads a size of -1 as null octets, but Kafka refuses a null header name
        boolean present = true;
        rewindHeaders();
        while (present && nextHeader())
        {
            present = headerRO.name() != null;
        }
        return present;
    }

    /** The record's offset: the batch's base offset plus the record's offset delta. */
    public long offset()
    {
        return offset;
    }

    /** Create time (the batch's base timestamp plus the record's delta), or the batch's log append time. */
    public long timestamp()
    {
        return timestamp;
    }

    /** The key, or {@code null}. */
    public OctetsFW key()
    {
        return recordRO.key();
    }

    /** The value, or {@code null} (a tombstone). */
    public OctetsFW value()
    {
        return recordRO.value();
    }

    public int headerCount()
    {
        return recordRO.headers().count();
    }

    /**
     * Moves to the next header, read by {@link #header}.
     *
     * @return false after the last one
     */
    public boolean nextHeader()
    {
        final boolean next = headerIndex < headerCount();
        if (next)
        {
            // the record's decode checked every header already
            headerPosition = headerRO.decode(recordRO.buffer(), headerPosition, recordRO.limit());
            headerIndex++;
        }
        return next;
    }

    /** The current header: its name and its value (or {@code null}). */
    public RecordHeaderFW header()
    {
        return headerRO;
    }

    /** Makes {@link #nextHeader} start again from the first header. */
    public void rewindHeaders()
    {
        headerIndex = 0;
        headerPosition = headersOffset;
    }

    /** The buffer the record is in. */
    public DirectBuffer buffer()
    {
        return recordRO.buffer();
    }

    /**
     * Where the header items start in {@link #buffer}: the same bytes as the items of the kafka stream extensions'
     * {@code array32<KafkaHeader>}, so a binding copies them verbatim, {@link #headerCount} of them, up to
     * {@link #headersLimit}.
     */
    public int headersOffset()
    {
        return headersOffset;
    }

    public int headersLimit()
    {
        return recordRO.limit();
    }

    /** The record as its flyweight, for the fields not exposed here (attributes, deltas). */
    public RecordFW fields()
    {
        return recordRO;
    }
}
