/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;

import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.utils.internals.ByteBufferOutputStream;

/**
 * Compresses the records of a batch through kafka-clients' codecs into an output buffer it owns and reuses (grown
 * to the largest batch seen). The codecs allocate their streams and buffers per batch: acceptable for now, a
 * compressed batch amortises it over its records. Not thread-safe: one per worker, like the encoder that owns it.
 */
final class RecordsDeflater
{
    /** The codec failed. */
    static final int FAILED = -1;

    private static final int INITIAL_CAPACITY = 64 * 1024;

    private final ByteBufferOutputStream output = new ByteBufferOutputStream(INITIAL_CAPACITY);

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
            result = compress(compression, records, length);
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
        DirectBuffer records,
        int length) throws IOException
    {
        output.position(0);
        try (OutputStream out = compression.codec().wrapForOutput(output, RecordBatches.MAGIC_V2))
        {
            out.write(records.byteArray(), records.wrapAdjustment(), length);
        }
        return output.position();
    }

    /** Copies the compressed bytes of the last {@link #deflate} to {@code index} of {@code buffer}. */
    void copyTo(
        MutableDirectBuffer buffer,
        int index,
        int length)
    {
        final ByteBuffer compressed = output.buffer();
        buffer.putBytes(index, compressed, 0, length);
    }
}
