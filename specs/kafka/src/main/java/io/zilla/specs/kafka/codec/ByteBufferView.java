/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

import org.agrona.DirectBuffer;

/**
 * A {@link ByteBuffer} over a region of a {@link DirectBuffer}, for the JDK and kafka-clients APIs that take one
 * (CRC32C, the decompressors). A view is made once per memory behind the buffers (an array or a ByteBuffer) and kept:
 * one codec meets several in turn (a binding's buffer-pool slots lie in several chunks of 16 slots, each its own
 * ByteBuffer), so the views of the last {@value #MAX_VIEWS} are kept, and the steady state allocates nothing. A
 * buffer that wraps a raw address has neither an array nor a ByteBuffer to view: its region is copied into a reused
 * scratch buffer instead.
 * <p>
 * One region at a time: each call moves the same view.
 */
final class ByteBufferView
{
    private static final int MAX_VIEWS = 64;

    // the memories viewed (byte[] or ByteBuffer, by identity) and their views; the last one found is tried first
    private Object[] viewed = new Object[4];
    private ByteBuffer[] views = new ByteBuffer[4];
    private int count;
    private int last;
    private int evict;
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
        if (array != null || byteBuffer != null)
        {
            result = region(viewOf(array != null ? array : byteBuffer), buffer.wrapAdjustment() + offset, length);
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

    private ByteBuffer viewOf(
        Object memory)
    {
        int index = viewed[last] == memory ? last : -1;
        for (int i = 0; i < count && index < 0; i++)
        {
            index = viewed[i] == memory ? i : -1;
        }
        if (index < 0)
        {
            if (count == viewed.length && count < MAX_VIEWS)
            {
                viewed = Arrays.copyOf(viewed, count * 2);
                views = Arrays.copyOf(views, count * 2);
            }
            if (count < viewed.length)
            {
                index = count++;
            }
            else
            {
                index = evict;
                evict = (evict + 1) % MAX_VIEWS;
            }
            viewed[index] = memory;
            views[index] = memory instanceof byte[] array ? ByteBuffer.wrap(array) : ((ByteBuffer) memory).duplicate();
        }
        last = index;
        return views[index];
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
