/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

/**
 * What kafka_records.idl cannot say about a record batch (magic 2): where the CRC'd range and the records start,
 * and the attribute bits.
 */
public final class RecordBatches
{
    /** The only batch format Kafka 4 writes, and the only one this codec reads. */
    public static final byte MAGIC_V2 = 2;

    /** baseOffset and batchLength: batchLength counts the bytes after them. */
    public static final int LOG_OVERHEAD = 12;
    public static final int MAGIC_OFFSET = 16;
    public static final int CRC_OFFSET = 17;
    /** The CRC covers the batch from its attributes to its end. */
    public static final int ATTRIBUTES_OFFSET = 21;
    /** The size of RecordBatchHeaderFW: the records start here. */
    public static final int RECORDS_OFFSET = 61;
    /** The smallest batchLength: a header and no records. */
    public static final int MIN_BATCH_LENGTH = RECORDS_OFFSET - LOG_OVERHEAD;

    public static final int COMPRESSION_MASK = 0x07;
    public static final int LOG_APPEND_TIME_FLAG = 0x08;
    public static final int TRANSACTIONAL_FLAG = 0x10;
    public static final int CONTROL_FLAG = 0x20;
    public static final int DELETE_HORIZON_FLAG = 0x40;

    /** No producer id, epoch or sequence: a batch of a producer that is not idempotent. */
    public static final long NO_PRODUCER_ID = -1L;
    public static final short NO_PRODUCER_EPOCH = -1;
    public static final int NO_SEQUENCE = -1;
    public static final int NO_PARTITION_LEADER_EPOCH = -1;

    /** A control record's type (its key is an int16 version then this int16): the end-transaction markers. */
    public static final short CONTROL_ABORT = 0;
    public static final short CONTROL_COMMIT = 1;
    /** A control batch whose first record's key could not be read. */
    public static final short CONTROL_UNKNOWN = -1;

    private RecordBatches()
    {
    }
}
