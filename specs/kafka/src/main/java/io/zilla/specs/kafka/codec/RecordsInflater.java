/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.io.IOException;
import java.util.zip.DataFormatException;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;

/**
 * Inflates the records of a compressed batch in Kafka's framing for each codec (GzipInflater, SnappyInflater,
 * Lz4Inflater, ZstdInflater), reading what kafka-clients' producers and brokers write. Each codec's state is made the
 * first time the codec is used and then reused, as are the output (grown to the largest batch seen, up to a bound
 * that stops a small batch from inflating into gigabytes) and, for batches that are not in an array (direct or
 * off-heap memory), an input array the batch is copied to: in steady state a batch allocates nothing. Not
 * thread-safe: one per decoder, like the decoder that owns it.
 */
final class RecordsInflater
{
    /** The records inflate to more than the bound. */
    static final int TOO_LARGE = -1;
    /** The codec failed: the bytes are not what the compression says. */
    static final int CORRUPT = -2;

    private static final int INITIAL_CAPACITY = 64 * 1024;

    private final ExpandableArrayBuffer output = new ExpandableArrayBuffer(INITIAL_CAPACITY);
    private final ExpandableArrayBuffer input = new ExpandableArrayBuffer(1024);
    private final int maxLength;

    private GzipInflater gzip;
    private SnappyInflater snappy;
    private Lz4Inflater lz4;
    private ZstdInflater zstd;

    RecordsInflater(
        int maxLength)
    {
        this.maxLength = maxLength;
    }

    /** The inflated records of the last {@link #inflate}, from index 0. */
    DirectBuffer output()
    {
        return output;
    }

    /**
     * Inflates {@code [offset, offset + length)} of {@code buffer} into {@link #output}.
     *
     * @return the inflated length, or {@link #TOO_LARGE} or {@link #CORRUPT}
     */
    int inflate(
        RecordCompression compression,
        DirectBuffer buffer,
        int offset,
        int length)
    {
        int result;
        try
        {
            final byte[] array = buffer.byteArray();
            if (array != null)
            {
                result = decompress(compression, array, buffer.wrapAdjustment() + offset, length);
            }
            else
            {
                input.checkLimit(length);
                input.putBytes(0, buffer, offset, length);
                result = decompress(compression, input.byteArray(), 0, length);
            }
        }
        catch (IOException | DataFormatException | RuntimeException ex)
        {
            // a codec's own exception must not escape to the worker
            result = CORRUPT;
        }
        catch (Error ex)
        {
            // nor its Errors: snappy-java reports corrupt input with SnappyError, a native codec that cannot load
            // with a LinkageError; the JVM's own failures (out of memory...) are not ours to hide
            if (ex instanceof VirtualMachineError)
            {
                throw ex;
            }
            result = CORRUPT;
        }
        return result;
    }

    private int decompress(
        RecordCompression compression,
        byte[] array,
        int offset,
        int length) throws IOException, DataFormatException
    {
        return switch (compression)
        {
            case GZIP -> gzip().inflate(array, offset, length, output, maxLength);
            case SNAPPY -> snappy().inflate(array, offset, length, output, maxLength);
            case LZ4 -> lz4().inflate(array, offset, length, output, maxLength);
            case ZSTD -> zstd().inflate(array, offset, length, output, maxLength);
            default -> CORRUPT;
        };
    }

    private GzipInflater gzip()
    {
        if (gzip == null)
        {
            gzip = new GzipInflater();
        }
        return gzip;
    }

    private SnappyInflater snappy()
    {
        if (snappy == null)
        {
            snappy = new SnappyInflater();
        }
        return snappy;
    }

    private Lz4Inflater lz4()
    {
        if (lz4 == null)
        {
            lz4 = new Lz4Inflater();
        }
        return lz4;
    }

    private ZstdInflater zstd()
    {
        if (zstd == null)
        {
            zstd = new ZstdInflater();
        }
        return zstd;
    }
}
