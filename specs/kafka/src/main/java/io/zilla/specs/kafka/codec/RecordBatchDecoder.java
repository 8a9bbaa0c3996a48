/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.RecordBatches.ATTRIBUTES_OFFSET;
import static io.zilla.specs.kafka.codec.RecordBatches.COMPRESSION_MASK;
import static io.zilla.specs.kafka.codec.RecordBatches.CONTROL_FLAG;
import static io.zilla.specs.kafka.codec.RecordBatches.CONTROL_UNKNOWN;
import static io.zilla.specs.kafka.codec.RecordBatches.LOG_APPEND_TIME_FLAG;
import static io.zilla.specs.kafka.codec.RecordBatches.LOG_OVERHEAD;
import static io.zilla.specs.kafka.codec.RecordBatches.MAGIC_OFFSET;
import static io.zilla.specs.kafka.codec.RecordBatches.MAGIC_V2;
import static io.zilla.specs.kafka.codec.RecordBatches.MIN_BATCH_LENGTH;
import static io.zilla.specs.kafka.codec.RecordBatches.RECORDS_OFFSET;
import static io.zilla.specs.kafka.codec.RecordBatches.TRANSACTIONAL_FLAG;

import java.nio.ByteOrder;

import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.types.codec.RecordBatchHeaderFW;
import org.agrona.DirectBuffer;

/**
 * Reads the record batches of one partition of a Fetch response (its {@code records} bytes) in place: {@link #wrap}
 * the bytes, then {@link #nextBatch} and, per batch, {@link #nextRecord}. The last batch may be cut short by the
 * fetch's size limit, which is normal: it ends the iteration quietly ({@link #truncated}).
 * <p>
 * Per batch it tells what a read_committed fetch needs to drop aborted records: the producer id, whether the batch
 * is transactional, whether it is a control batch and which end-transaction marker that is, and its first and last
 * offsets. A corrupt batch (CRC mismatch, when verified), a malformed one, or one this codec cannot read stops the
 * iteration with an {@link #error}, never an exception: the caller resets its stream.
 * <p>
 * Uncompressed, the records are read where they are and nothing is allocated. Compressed, the batch's records are
 * inflated by the decoder's {@link RecordsInflater} (codec state made once, then reused) into a scratch buffer it owns
 * and reuses: once warmed up, nothing is allocated either. Not thread-safe: one per worker.
 */
public final class RecordBatchDecoder
{
    public static final int NO_ERROR = 0;
    /** The batch's CRC does not match its bytes, or its compressed records do not inflate. */
    public static final int CORRUPT = 1;
    /** A length or a count does not add up, or a record does not read. */
    public static final int MALFORMED = 2;
    /** A magic other than 2: Kafka 4 neither writes nor converts the older formats. */
    public static final int UNSUPPORTED_MAGIC = 3;
    /** A compression id Kafka does not define. */
    public static final int UNSUPPORTED_COMPRESSION = 4;
    /** The records inflate to more than the decoder's bound. */
    public static final int TOO_LARGE = 5;

    /** The default bound on the inflated records of one compressed batch. */
    public static final int DEFAULT_MAX_RECORDS_LENGTH = 64 * 1024 * 1024;

    private final RecordBatchHeaderFW headerRO = new RecordBatchHeaderFW();
    private final DecodedRecord recordRO = new DecodedRecord();
    private final RegionCrc32c crc = new RegionCrc32c();
    private final RecordsInflater inflater;
    private final boolean verifyCrc;

    private DirectBuffer buffer;
    private int position;
    private int limit;
    private int error;
    private boolean truncated;

    private DirectBuffer records;
    private int recordPosition;
    private int recordsLimit;
    private int recordIndex;
    private short controlType;

    /** A decoder that verifies CRCs. */
    public RecordBatchDecoder()
    {
        this(true, DEFAULT_MAX_RECORDS_LENGTH);
    }

    /**
     * @param verifyCrc whether each batch's CRC is checked (a client should; a cache that trusts its broker may not)
     * @param maxRecordsLength the bound on the inflated records of one compressed batch
     */
    public RecordBatchDecoder(
        boolean verifyCrc,
        int maxRecordsLength)
    {
        this.verifyCrc = verifyCrc;
        this.inflater = new RecordsInflater(maxRecordsLength);
    }

    /** Starts reading the batches in {@code [offset, limit)} of {@code buffer} ({@link #MALFORMED} when outside it). */
    public RecordBatchDecoder wrap(
        DirectBuffer buffer,
        int offset,
        int limit)
    {
        this.buffer = buffer;
        this.position = offset;
        this.limit = limit;
        // a region outside the buffer is the caller's mistake, reported rather than thrown later
        this.error = 0 <= offset && offset <= limit && limit <= buffer.capacity() ? NO_ERROR : MALFORMED;
        this.truncated = false;
        this.records = null;
        this.recordIndex = 0;
        return this;
    }

    /**
     * Moves to the next whole batch.
     *
     * @return false at the end of the bytes, at a truncated last batch, or on an {@link #error}
     */
    public boolean nextBatch()
    {
        records = null;
        boolean next = false;
        if (error == NO_ERROR && !truncated && position < limit)
        {
            final int remaining = limit - position;
            final int batchLength = remaining >= LOG_OVERHEAD ? buffer.getInt(position + 8, ByteOrder.BIG_ENDIAN) : 0;
            if (remaining < LOG_OVERHEAD || batchLength > remaining - LOG_OVERHEAD)
            {
                truncated = true;
            }
            else if (batchLength < MIN_BATCH_LENGTH && remaining > MAGIC_OFFSET
                && buffer.getByte(position + MAGIC_OFFSET) != MAGIC_V2)
            {
                error = UNSUPPORTED_MAGIC;
            }
            else if (batchLength < MIN_BATCH_LENGTH)
            {
                error = MALFORMED;
            }
            else
            {
                final int batchOffset = position;
                position += LOG_OVERHEAD + batchLength;
                next = readBatch(batchOffset, position);
            }
        }
        return next;
    }

    /** The error that stopped the iteration, or {@link #NO_ERROR}. */
    public int error()
    {
        return error;
    }

    /**
     * Whether the bytes ended with a partial batch, which the iteration skipped. When no whole batch came before it,
     * the fetch's size limits are smaller than that batch (brokers since Fetch v3 return the first batch whole).
     */
    public boolean truncated()
    {
        return truncated;
    }

    /** The current batch's header, as its flyweight. */
    public RecordBatchHeaderFW batch()
    {
        return headerRO;
    }

    public long baseOffset()
    {
        return headerRO.baseOffset();
    }

    /** The offset of the batch's last record, even when compaction removed it. */
    public long lastOffset()
    {
        return headerRO.baseOffset() + headerRO.lastOffsetDelta();
    }

    /** Where the next fetch starts after this batch. */
    public long nextOffset()
    {
        return lastOffset() + 1;
    }

    public long producerId()
    {
        return headerRO.producerId();
    }

    public short producerEpoch()
    {
        return headerRO.producerEpoch();
    }

    public int baseSequence()
    {
        return headerRO.baseSequence();
    }

    public int recordCount()
    {
        return headerRO.recordCount();
    }

    public boolean isTransactional()
    {
        return (headerRO.attributes() & TRANSACTIONAL_FLAG) != 0;
    }

    /** Whether the batch holds control records (an end-transaction marker), never given to an application. */
    public boolean isControl()
    {
        return (headerRO.attributes() & CONTROL_FLAG) != 0;
    }

    /**
     * A control batch's record type: {@link RecordBatches#CONTROL_COMMIT} or {@link RecordBatches#CONTROL_ABORT} for
     * an end-transaction marker of {@link #producerId}, another type for KRaft's own control records, or
     * {@link RecordBatches#CONTROL_UNKNOWN} (also for a batch that is not a control batch).
     */
    public short controlType()
    {
        return controlType;
    }

    /** Whether the record timestamps are the broker's log append time (the batch's max timestamp). */
    public boolean isLogAppendTime()
    {
        return (headerRO.attributes() & LOG_APPEND_TIME_FLAG) != 0;
    }

    public RecordCompression compression()
    {
        return RecordCompression.of(headerRO.attributes() & COMPRESSION_MASK);
    }

    /**
     * Moves to the next record of the current batch.
     *
     * @return false after its last record, or on an {@link #error}
     */
    public boolean nextRecord()
    {
        boolean next = false;
        if (records != null && error == NO_ERROR)
        {
            if (recordIndex < headerRO.recordCount())
            {
                final int recordLimit = recordRO.decode(records, recordPosition, recordsLimit, headerRO);
                next = recordLimit >= 0;
                error = next ? NO_ERROR : MALFORMED;
                recordPosition = next ? recordLimit : recordPosition;
                recordIndex++;
            }
            else if (recordPosition != recordsLimit)
            {
                // more bytes than recordCount records: the batch's length or count is wrong
                error = MALFORMED;
            }
        }
        return next;
    }

    /** The current record. */
    public DecodedRecord record()
    {
        return recordRO;
    }

    private boolean readBatch(
        int batchOffset,
        int batchLimit)
    {
        headerRO.wrap(buffer, batchOffset, batchLimit);
        final RecordCompression compression = compression();
        if (headerRO.magic() != MAGIC_V2)
        {
            error = UNSUPPORTED_MAGIC;
        }
        else if (verifyCrc && checksum(batchOffset, batchLimit) != headerRO.crc())
        {
            error = CORRUPT;
        }
        else if (compression == null)
        {
            error = UNSUPPORTED_COMPRESSION;
        }
        else if (headerRO.recordCount() < 0)
        {
            error = MALFORMED;
        }
        else if (compression == RecordCompression.NONE)
        {
            startRecords(buffer, batchOffset + RECORDS_OFFSET, batchLimit);
        }
        else
        {
            final int inflated = inflater.inflate(compression, buffer, batchOffset + RECORDS_OFFSET,
                batchLimit - batchOffset - RECORDS_OFFSET);
            if (inflated >= 0)
            {
                startRecords(inflater.output(), 0, inflated);
            }
            else
            {
                error = inflated == RecordsInflater.TOO_LARGE ? TOO_LARGE : CORRUPT;
            }
        }
        return error == NO_ERROR;
    }

    private long checksum(
        int batchOffset,
        int batchLimit)
    {
        return crc.compute(buffer, batchOffset + ATTRIBUTES_OFFSET, batchLimit - batchOffset - ATTRIBUTES_OFFSET);
    }

    private void startRecords(
        DirectBuffer records,
        int offset,
        int limit)
    {
        this.records = records;
        this.recordPosition = offset;
        this.recordsLimit = limit;
        this.recordIndex = 0;
        this.controlType = CONTROL_UNKNOWN;
        if (isControl() && recordRO.decode(records, offset, limit, headerRO) >= 0)
        {
            // a control record's key: int16 version, int16 type
            final OctetsFW key = recordRO.key();
            if (key != null && key.sizeof() >= 4)
            {
                controlType = key.buffer().getShort(key.offset() + 2, ByteOrder.BIG_ENDIAN);
            }
        }
    }
}
