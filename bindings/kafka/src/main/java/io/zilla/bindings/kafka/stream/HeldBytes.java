/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import io.zilla.engine.binding.buffer.BufferPool;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Bytes one stream holds until they can go on: in a buffer-pool slot, taken only while something is held, or on
 * the heap once a single response outgrows a slot (a large Metadata). The heap buffer then stays, so that the
 * credit already offered for it never shrinks.
 */
final class HeldBytes
{
    private final BufferPool pool;
    private final long streamId;

    private int slot = BufferPool.NO_SLOT;
    private MutableDirectBuffer heap;
    private int offset;
    private int limit;

    HeldBytes(BufferPool pool, long streamId)
    {
        this.pool = pool;
        this.streamId = streamId;
    }

    /** How many bytes this can hold: the credit to offer for it. */
    int capacity()
    {
        return heap != null ? heap.capacity() : pool.slotCapacity();
    }

    int size()
    {
        return limit - offset;
    }

    boolean isEmpty()
    {
        return limit == offset;
    }

    /** The bytes held are {@code [offset(), limit())} of this buffer; only valid while not empty. */
    MutableDirectBuffer buffer()
    {
        return heap != null ? heap : pool.buffer(slot);
    }

    int offset()
    {
        return offset;
    }

    int limit()
    {
        return limit;
    }

    /** Appends {@code length} bytes; false when no slot is free or they do not fit in the capacity. */
    boolean append(DirectBuffer source, int sourceOffset, int length)
    {
        boolean appended = false;
        if (heap == null && slot == BufferPool.NO_SLOT)
        {
            slot = pool.acquire(streamId);
        }
        if (heap != null || slot != BufferPool.NO_SLOT)
        {
            if (limit + length > capacity())
            {
                compact();
            }
            if (limit + length <= capacity())
            {
                buffer().putBytes(limit, source, sourceOffset, length);
                limit += length;
                appended = true;
            }
        }
        return appended;
    }

    /** Grows onto the heap to hold at least {@code minCapacity} bytes, keeping what is held. */
    void ensureCapacity(int minCapacity)
    {
        if (minCapacity > capacity())
        {
            final MutableDirectBuffer grown = new ExpandableArrayBuffer(minCapacity);
            if (!isEmpty())
            {
                grown.putBytes(0, buffer(), offset, size());
            }
            limit -= offset;
            offset = 0;
            releaseSlot();
            heap = grown;
        }
    }

    /** Drops the first {@code length} bytes held; an emptied slot goes back to the pool. */
    void consume(int length)
    {
        offset += length;
        if (offset == limit)
        {
            offset = 0;
            limit = 0;
            releaseSlot();
        }
    }

    /** Gives back the slot and the heap buffer, dropping what is held. */
    void release()
    {
        offset = 0;
        limit = 0;
        releaseSlot();
        heap = null;
    }

    private void compact()
    {
        if (offset > 0)
        {
            final MutableDirectBuffer buffer = buffer();
            buffer.putBytes(0, buffer, offset, limit - offset);
            limit -= offset;
            offset = 0;
        }
    }

    private void releaseSlot()
    {
        if (slot != BufferPool.NO_SLOT)
        {
            pool.release(slot);
            slot = BufferPool.NO_SLOT;
        }
    }
}
