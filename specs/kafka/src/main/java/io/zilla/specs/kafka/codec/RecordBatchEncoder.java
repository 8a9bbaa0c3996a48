/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.RecordBatches.ATTRIBUTES_OFFSET;
import static io.zilla.specs.kafka.codec.RecordBatches.CRC_OFFSET;
import static io.zilla.specs.kafka.codec.RecordBatches.LOG_OVERHEAD;
import static io.zilla.specs.kafka.codec.RecordBatches.MAGIC_V2;
import static io.zilla.specs.kafka.codec.RecordBatches.NO_PARTITION_LEADER_EPOCH;
import static io.zilla.specs.kafka.codec.RecordBatches.RECORDS_OFFSET;
import static io.zilla.specs.kafka.codec.RecordBatches.TRANSACTIONAL_FLAG;

import java.nio.ByteOrder;

import io.zilla.specs.flyweight.Array32FW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.flyweight.Varints;
import io.zilla.specs.kafka.types.codec.RecordBatchHeaderFW;
import io.zilla.specs.kafka.types.stream.KafkaBytesFW;
import io.zilla.specs.kafka.types.stream.KafkaHeaderFW;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Writes one Kafka record batch (magic 2, create time, base offset 0: the broker assigns offsets) into a caller's
 * buffer, for a Produce request: {@link #begin}, {@link #append} each record, {@link #finish}.
 * <p>
 * Uncompressed, the records are written in place and nothing is allocated. Compressed, they are written to a scratch
 * buffer the encoder owns (grown to the largest batch seen, then reused), compressed in Kafka's framing by the
 * encoder's {@link RecordsDeflater} (codec state made once, then reused) into a second reused buffer, and copied after
 * the header: once warmed up, nothing is allocated either.
 * <p>
 * Nothing overflows: {@link #append} refuses a record that does not fit (uncompressed: in the caller's buffer;
 * compressed: within the encoder's bound on uncompressed records) and leaves the batch as it was, so that the caller
 * can finish it and begin the next one with that record; {@link #finish} reports a compressed batch that does not
 * fit. Not thread-safe: one per worker.
 */
public final class RecordBatchEncoder
{
    /** What {@link #finish} returns when the batch does not fit, or when there is no batch to finish. */
    public static final int NO_SPACE = -1;

    /** The default bound on the uncompressed records of a compressed batch. */
    public static final int DEFAULT_MAX_RECORDS_LENGTH = 16 * 1024 * 1024;

    private final RecordBatchHeaderFW.Builder headerRW = new RecordBatchHeaderFW.Builder();
    private final RegionCrc32c crc = new RegionCrc32c();
    private final ExpandableArrayBuffer scratch = new ExpandableArrayBuffer(64 * 1024);
    private final RecordsDeflater deflater = new RecordsDeflater();
    private final int maxRecordsLength;

    private MutableDirectBuffer buffer;
    private int offset;
    private int maxLimit;
    private RecordCompression compression;
    private long producerId;
    private short producerEpoch;
    private int baseSequence;
    private boolean transactional;

    private MutableDirectBuffer records;
    private int recordsLimit;
    private int recordsMaxLimit;
    private int recordCount;
    private long baseTimestamp;
    private long maxTimestamp;

    public RecordBatchEncoder()
    {
        this(DEFAULT_MAX_RECORDS_LENGTH);
    }

    /** @param maxRecordsLength the bound on the uncompressed records of a compressed batch */
    public RecordBatchEncoder(
        int maxRecordsLength)
    {
        this.maxRecordsLength = maxRecordsLength;
    }

    /** Begins a batch of a producer that is neither idempotent nor transactional. */
    public boolean begin(
        MutableDirectBuffer buffer,
        int offset,
        int maxLimit,
        RecordCompression compression)
    {
        return begin(buffer, offset, maxLimit, compression, RecordBatches.NO_PRODUCER_ID, RecordBatches.NO_PRODUCER_EPOCH,
            RecordBatches.NO_SEQUENCE, false);
    }

    /**
     * Begins a batch at {@code offset} of {@code buffer}, to end at {@code maxLimit} at most.
     *
     * @param producerId the idempotent or transactional producer's id, or -1
     * @param producerEpoch its epoch, or -1
     * @param baseSequence the sequence of the first record, or -1
     * @param transactional whether the records are part of a transaction
     * @return false when not even the batch header fits
     */
    public boolean begin(
        MutableDirectBuffer buffer,
        int offset,
        int maxLimit,
        RecordCompression compression,
        long producerId,
        short producerEpoch,
        int baseSequence,
        boolean transactional)
    {
        final boolean fits = maxLimit - offset >= RECORDS_OFFSET;
        this.buffer = fits ? buffer : null;
        this.offset = offset;
        this.maxLimit = maxLimit;
        this.compression = compression;
        this.producerId = producerId;
        this.producerEpoch = producerEpoch;
        this.baseSequence = baseSequence;
        this.transactional = transactional;
        this.recordCount = 0;
        this.baseTimestamp = 0L;
        this.maxTimestamp = -1L;
        if (compression == RecordCompression.NONE)
        {
            records = buffer;
            recordsLimit = offset + RECORDS_OFFSET;
            recordsMaxLimit = maxLimit;
        }
        else
        {
            records = scratch;
            recordsLimit = 0;
            recordsMaxLimit = maxRecordsLength;
        }
        return fits;
    }

    /** The number of records appended to the batch begun last. */
    public int recordCount()
    {
        return recordCount;
    }

    /** Appends a record without headers; a {@code null} key or value is Kafka's null. */
    public boolean append(
        long timestamp,
        DirectBuffer key,
        int keyOffset,
        int keyLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength)
    {
        return append(timestamp, key, keyOffset, keyLength, value, valueOffset, valueLength, null, 0, 0, 0);
    }

    /**
     * Appends a record. A {@code null} key or value is Kafka's null (its offset and length are ignored). The headers
     * are {@code headerCount} items already in the record format, each a varint name length, the name, a varint value
     * length (-1 null) and the value: RecordHeaderFW, and the same bytes as the items of the kafka stream extensions'
     * {@code array32<KafkaHeader>}, so a binding passes those on verbatim.
     *
     * @return false, and the batch as it was, when the record does not fit (or a length or count is negative)
     */
    public boolean append(
        long timestamp,
        DirectBuffer key,
        int keyOffset,
        int keyLength,
        DirectBuffer value,
        int valueOffset,
        int valueLength,
        DirectBuffer headers,
        int headersOffset,
        int headersLength,
        int headerCount)
    {
        final long timestampBase = recordCount == 0 ? timestamp : baseTimestamp;
        final long timestampDelta = timestamp - timestampBase;
        final int keySize = key == null ? -1 : keyLength;
        final int valueSize = value == null ? -1 : valueLength;
        final long bodyLength = 1L
            + sizeofVarint64(timestampDelta)
            + sizeofVarint32(recordCount)
            + sizeofVarint32(keySize) + Math.max(keySize, 0)
            + sizeofVarint32(valueSize) + Math.max(valueSize, 0)
            + sizeofVarint32(headerCount) + headersLength;
        final long recordLength = bodyLength <= Integer.MAX_VALUE
            ? sizeofVarint32((int) bodyLength) + bodyLength
            : Long.MAX_VALUE;
        final boolean valid = keyLength >= 0 && valueLength >= 0 && headersLength >= 0 && headerCount >= 0;
        final boolean fits = buffer != null && valid && recordLength <= recordsMaxLimit - recordsLimit;
        if (fits)
        {
            final MutableDirectBuffer out = records;
            int limit = recordsLimit;
            limit = putVarint32(out, limit, (int) bodyLength);
            out.putByte(limit++, (byte) 0);
            limit = Varints.putUnsigned(out, limit, Varints.zigZag64(timestampDelta));
            limit = putVarint32(out, limit, recordCount);
            limit = putVarint32(out, limit, keySize);
            if (keySize > 0)
            {
                out.putBytes(limit, key, keyOffset, keySize);
                limit += keySize;
            }
            limit = putVarint32(out, limit, valueSize);
            if (valueSize > 0)
            {
                out.putBytes(limit, value, valueOffset, valueSize);
                limit += valueSize;
            }
            limit = putVarint32(out, limit, headerCount);
            if (headersLength > 0)
            {
                out.putBytes(limit, headers, headersOffset, headersLength);
                limit += headersLength;
            }
            recordsLimit = limit;
            baseTimestamp = timestampBase;
            maxTimestamp = recordCount == 0 ? timestamp : Math.max(maxTimestamp, timestamp);
            recordCount++;
        }
        return fits;
    }

    /**
     * Appends a record as a kafka stream carries it: the key and headers of its extension (KafkaProduceDataEx,
     * KafkaMergedProduceDataEx), whose header items are copied verbatim, and the value of its payload. A header name
     * must not be null: Kafka refuses the batch.
     *
     * @param value the value, or {@code null} for Kafka's null (a tombstone)
     * @return false, and the batch as it was, when the record does not fit
     */
    public boolean append(
        long timestamp,
        KafkaBytesFW key,
        OctetsFW value,
        Array32FW<KafkaHeaderFW> headers)
    {
        final OctetsFW keyBytes = key.value();
        final int headersOffset = headers.offset() + Integer.BYTES;
        return append(timestamp,
            keyBytes == null ? null : keyBytes.buffer(), keyBytes == null ? 0 : keyBytes.offset(),
            keyBytes == null ? 0 : keyBytes.sizeof(),
            value == null ? null : value.buffer(), value == null ? 0 : value.offset(), value == null ? 0 : value.sizeof(),
            headers.buffer(), headersOffset, Math.max(headers.limit() - headersOffset, 0), Math.max(headers.count(), 0));
    }

    /**
     * Finishes the batch: compresses its records when it should, writes the header and the CRC.
     *
     * @return the batch's length in bytes from the offset it began at; 0 for a batch without records (nothing is
     *     written: Kafka refuses empty batches); {@link #NO_SPACE} when the compressed records do not fit, or when
     *     no batch was begun
     */
    public int finish()
    {
        int length = NO_SPACE;
        if (buffer != null && recordCount == 0)
        {
            length = 0;
        }
        else if (buffer != null)
        {
            final int recordsLength = compression == RecordCompression.NONE ? recordsLimit - offset - RECORDS_OFFSET
                : deflate();
            if (recordsLength >= 0)
            {
                writeHeader(recordsLength);
                length = RECORDS_OFFSET + recordsLength;
            }
        }
        buffer = null;
        return length;
    }

    private int deflate()
    {
        final int compressedLength = deflater.deflate(compression, scratch, recordsLimit);
        final boolean fits = compressedLength >= 0 && compressedLength <= maxLimit - offset - RECORDS_OFFSET;
        if (fits)
        {
            deflater.copyTo(buffer, offset + RECORDS_OFFSET, compressedLength);
        }
        return fits ? compressedLength : NO_SPACE;
    }

    private void writeHeader(
        int recordsLength)
    {
        final int attributes = compression.id() | (transactional ? TRANSACTIONAL_FLAG : 0);
        headerRW.wrap(buffer, offset, maxLimit)
            .baseOffset(0L)
            .batchLength(RECORDS_OFFSET - LOG_OVERHEAD + recordsLength)
            .partitionLeaderEpoch(NO_PARTITION_LEADER_EPOCH)
            .magic(MAGIC_V2)
            .crc(0L)
            .attributes(attributes)
            .lastOffsetDelta(recordCount - 1)
            .baseTimestamp(baseTimestamp)
            .maxTimestamp(maxTimestamp)
            .producerId(producerId)
            .producerEpoch(producerEpoch)
            .baseSequence(baseSequence)
            .recordCount(recordCount)
            .build();
        final int crcLength = RECORDS_OFFSET - ATTRIBUTES_OFFSET + recordsLength;
        final long checksum = crc.compute(buffer, offset + ATTRIBUTES_OFFSET, crcLength);
        buffer.putInt(offset + CRC_OFFSET, (int) checksum, ByteOrder.BIG_ENDIAN);
    }

    private static int sizeofVarint32(
        int value)
    {
        return Varints.sizeofUnsigned(Varints.zigZag32(value));
    }

    private static int sizeofVarint64(
        long value)
    {
        return Varints.sizeofUnsigned(Varints.zigZag64(value));
    }

    private static int putVarint32(
        MutableDirectBuffer buffer,
        int offset,
        int value)
    {
        return Varints.putUnsigned(buffer, offset, Varints.zigZag32(value));
    }
}
