/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import org.agrona.DirectBuffer;

/**
 * A {@link ByteBuffer} over a region of a {@link DirectBuffer}, for the JDK and kafka-clients APIs that take one
 * (CRC32C, the decompressors). The view is cached and re-created only when the memory behind the buffers changes
 * (zilla's slabs and rings do not), so the steady state allocates nothing. A buffer that wraps a raw address has
 * neither an array nor a ByteBuffer to view: its region is copied into a reused scratch buffer instead.
 * <p>
 * One region at a time: each call moves the same view.
 */
final class ByteBufferView
{
    private byte[] viewedArray;
    private ByteBuffer viewedBuffer;
    private ByteBuffer view;
    private ByteBuffer copy = ByteBuffer.allocateDirect(0);

    /** The region {@code [offset, offset + length)} of {@code buffer}, as the view's position and limit. */
    ByteBuffer wrap(
        DirectBuffer buffer,
        int offset,
        int length)
    {
        final byte[] array = buffer.byteArray();
        final ByteBuffer byteBuffer = buffer.byteBuffer();
        final ByteBuffer result;
        if (array != null)
        {
            if (array != viewedArray)
            {
                viewedArray = array;
                viewedBuffer = null;
                view = ByteBuffer.wrap(array);
            }
            result = region(view, buffer.wrapAdjustment() + offset, length);
        }
        else if (byteBuffer != null)
        {
            if (byteBuffer != viewedBuffer)
            {
                viewedBuffer = byteBuffer;
                viewedArray = null;
                view = byteBuffer.duplicate();
            }
            result = region(view, buffer.wrapAdjustment() + offset, length);
        }
        else
        {
            if (copy.capacity() < length)
            {
                copy = ByteBuffer.allocateDirect(Math.max(length, copy.capacity() * 2));
            }
            buffer.getBytes(offset, copy, 0, length);
            result = region(copy, 0, length);
        }
        return result;
    }

    private static ByteBuffer region(
        ByteBuffer view,
        int index,
        int length)
    {
        view.clear().position(index).limit(index + length);
        return view.order(ByteOrder.BIG_ENDIAN);
    }
}
