/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.io.IOException;
import java.io.InputStream;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.apache.kafka.common.utils.internals.BufferSupplier;

/**
 * Inflates the records of a compressed batch into a scratch buffer it owns and reuses, through kafka-clients'
 * codecs. The scratch grows to the largest batch seen, up to a bound that stops a small batch from inflating into
 * gigabytes. The codecs allocate their streams per batch (and gzip and snappy their buffers): acceptable for now,
 * compressed batches amortise it over their records. Not thread-safe: one per worker, like the decoder that owns it.
 */
final class RecordsInflater
{
    /** The records inflate to more than the bound. */
    static final int TOO_LARGE = -1;
    /** The codec failed: the bytes are not what the compression says. */
    static final int CORRUPT = -2;

    private static final int INITIAL_CAPACITY = 64 * 1024;

    private final ExpandableArrayBuffer output = new ExpandableArrayBuffer(INITIAL_CAPACITY);
    private final ByteBufferView input = new ByteBufferView();
    private final BufferSupplier buffers = BufferSupplier.create();
    private final int maxLength;

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
        try (InputStream in = compression.codec().wrapForInput(input.wrap(buffer, offset, length), RecordBatches.MAGIC_V2,
            buffers))
        {
            result = readAll(in);
        }
        catch (IOException | RuntimeException ex)
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

    private int readAll(
        InputStream in) throws IOException
    {
        int size = 0;
        int read = 0;
        while (read != -1 && size != TOO_LARGE)
        {
            if (size == Math.min(output.capacity(), maxLength))
            {
                if (size == maxLength)
                {
                    size = in.read() == -1 ? size : TOO_LARGE;
                    break;
                }
                output.checkLimit((int) Math.min(maxLength, size * 2L));
            }
            read = in.read(output.byteArray(), size, Math.min(output.capacity(), maxLength) - size);
            size += Math.max(read, 0);
        }
        return size;
    }
}
