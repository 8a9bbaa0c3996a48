/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.buffer;

import java.nio.ByteBuffer;

import io.zilla.engine.binding.buffer.BufferPool;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayQueue;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A worker's slab: {@code slots} buffers of {@code slotCapacity} bytes. Memory is taken from the system in
 * chunks as slots are first used, so an engine that never needs many slots never pays for them.
 */
public final class SlabBufferPool implements BufferPool
{
    private static final int SLOTS_PER_CHUNK = 16;

    private final int slotCapacity;
    private final int slots;
    private final UnsafeBuffer[] buffers;
    private final IntArrayQueue free;
    private int allocated;

    public SlabBufferPool(int slotCapacity, int slots)
    {
        this.slotCapacity = slotCapacity;
        this.slots = slots;
        this.buffers = new UnsafeBuffer[slots];
        this.free = new IntArrayQueue(slots, IntArrayQueue.DEFAULT_NULL_VALUE);
    }

    @Override
    public int slotCapacity()
    {
        return slotCapacity;
    }

    @Override
    public int acquire(long streamId)
    {
        if (free.isEmpty() && allocated < slots)
        {
            allocateChunk();
        }
        return free.isEmpty() ? NO_SLOT : free.pollInt();
    }

    @Override
    public MutableDirectBuffer buffer(int slot)
    {
        return buffers[slot];
    }

    @Override
    public void release(int slot)
    {
        free.addInt(slot);
    }

    @Override
    public int acquiredSlots()
    {
        return allocated - free.size();
    }

    private void allocateChunk()
    {
        final int count = Math.min(SLOTS_PER_CHUNK, slots - allocated);
        final ByteBuffer chunk = ByteBuffer.allocateDirect(count * slotCapacity);
        for (int i = 0; i < count; i++)
        {
            final int slot = allocated + i;
            buffers[slot] = new UnsafeBuffer(chunk, i * slotCapacity, slotCapacity);
            free.addInt(slot);
        }
        allocated += count;
    }
}
