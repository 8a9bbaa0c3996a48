/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.io.IOException;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Compresses the records of a batch in Kafka's framing for each codec (GzipDeflater, SnappyDeflater, Lz4Deflater,
 * ZstdDeflater), byte for byte what kafka-clients' producer writes. Each codec's state (a Deflater, a compressor, a
 * native context) is made the first time the codec is used and then reused, as is the output buffer (grown to the
 * largest batch seen): in steady state a batch allocates nothing. Not thread-safe: one per encoder, like the encoder
 * that owns it.
 */
final class RecordsDeflater
{
    /** The codec failed. */
    static final int FAILED = -1;

    private static final int INITIAL_CAPACITY = 64 * 1024;

    private final ExpandableArrayBuffer output = new ExpandableArrayBuffer(INITIAL_CAPACITY);

    private GzipDeflater gzip;
    private SnappyDeflater snappy;
    private Lz4Deflater lz4;
    private ZstdDeflater zstd;

    /**
     * Compresses {@code [0, length)} of {@code records} (an array-backed buffer).
     *
     * @return the compressed length, or {@link #FAILED}
     */
    int deflate(
        RecordCompression compression,
        DirectBuffer records,
        int length)
    {
        int result;
        try
        {
            result = compress(compression, records.byteArray(), records.wrapAdjustment(), length);
        }
        catch (IOException | RuntimeException ex)
        {
            // a codec's own exception must not escape to the worker
            result = FAILED;
        }
        catch (Error ex)
        {
            // nor its Errors (snappy-java's SnappyError, a native codec that cannot load: LinkageError); the JVM's
            // own failures (out of memory...) are not ours to hide
            if (ex instanceof VirtualMachineError)
            {
                throw ex;
            }
            result = FAILED;
        }
        return result;
    }

    private int compress(
        RecordCompression compression,
        byte[] records,
        int offset,
        int length) throws IOException
    {
        return switch (compression)
        {
            case GZIP -> gzip().deflate(records, offset, length, output);
            case SNAPPY -> snappy().deflate(records, offset, length, output);
            case LZ4 -> lz4().deflate(records, offset, length, output);
            case ZSTD -> zstd().deflate(records, offset, length, output);
            default -> FAILED;
        };
    }

    /** Copies the compressed bytes of the last {@link #deflate} to {@code index} of {@code buffer}. */
    void copyTo(
        MutableDirectBuffer buffer,
        int index,
        int length)
    {
        buffer.putBytes(index, output, 0, length);
    }

    private GzipDeflater gzip()
    {
        if (gzip == null)
        {
            gzip = new GzipDeflater();
        }
        return gzip;
    }

    private SnappyDeflater snappy()
    {
        if (snappy == null)
        {
            snappy = new SnappyDeflater();
        }
        return snappy;
    }

    private Lz4Deflater lz4()
    {
        if (lz4 == null)
        {
            lz4 = new Lz4Deflater();
        }
        return lz4;
    }

    private ZstdDeflater zstd()
    {
        if (zstd == null)
        {
            zstd = new ZstdDeflater();
        }
        return zstd;
    }
}
