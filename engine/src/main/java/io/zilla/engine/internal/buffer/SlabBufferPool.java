/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.buffer;

import java.nio.ByteBuffer;

import io.zilla.engine.binding.buffer.BufferPool;
import org.agrona.BufferUtil;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A worker's slab: {@code slots} buffers of {@code slotCapacity} bytes, in chunks of {@value #SLOTS_PER_CHUNK}.
 * <p>
 * Memory is taken from the system a chunk at a time as slots are first needed, and given back once it is no longer
 * needed: a burst (10,000 connections opening at once, each holding a slot for a moment) would otherwise leave its
 * high-water mark allocated for good. So a slot is always taken from the lowest chunk that has one free, which keeps
 * the slots in use packed at the bottom, and the top chunk is freed once it and the one below it are wholly free: one
 * empty chunk stays as a spare, so that a load going up and down across a chunk's edge does not allocate and free
 * a megabyte each time.
 * <p>
 * A freed chunk's buffers are wrapped around nothing before its memory goes, so that a binding still holding one
 * after its release (a bug) fails a bounds check instead of writing to freed memory.
 */
public final class SlabBufferPool implements BufferPool
{
    static final int SLOTS_PER_CHUNK = 16;
    private static final int WHOLE_CHUNK = (1 << SLOTS_PER_CHUNK) - 1;
    private static final byte[] NOTHING = new byte[0];

    private final int slotCapacity;
    private final int slots;
    // a freed chunk's memory is found from its first slot's buffer
    private final UnsafeBuffer[] buffers;
    // per chunk, a bit per slot that is free (bit i is the chunk's slot i); a chunk not allocated has none
    private final int[] freeSlots;
    private int allocatedChunks;
    private int acquired;
    // no chunk below this one has a free slot
    private int lowestFree;

    public SlabBufferPool(int slotCapacity, int slots)
    {
        this.slotCapacity = slotCapacity;
        this.slots = slots;
        this.buffers = new UnsafeBuffer[slots];
        this.freeSlots = new int[(slots + SLOTS_PER_CHUNK - 1) / SLOTS_PER_CHUNK];
        for (int slot = 0; slot < slots; slot++)
        {
            buffers[slot] = new UnsafeBuffer(NOTHING);
        }
    }

    @Override
    public int slotCapacity()
    {
        return slotCapacity;
    }

    @Override
    public int acquire(long streamId)
    {
        int chunk = lowestFree;
        while (chunk < allocatedChunks && freeSlots[chunk] == 0)
        {
            chunk++;
        }
        lowestFree = chunk;
        if (chunk == allocatedChunks && !allocateChunk())
        {
            return NO_SLOT;
        }
        final int free = freeSlots[chunk];
        final int index = Integer.numberOfTrailingZeros(free);
        freeSlots[chunk] = free & ~(1 << index);
        acquired++;
        return chunk * SLOTS_PER_CHUNK + index;
    }

    @Override
    public MutableDirectBuffer buffer(int slot)
    {
        return buffers[slot];
    }

    @Override
    public void release(int slot)
    {
        final int chunk = slot / SLOTS_PER_CHUNK;
        final int bit = 1 << slot % SLOTS_PER_CHUNK;
        if (slot < 0 || chunk >= allocatedChunks || (freeSlots[chunk] & bit) != 0)
        {
            // NO_SLOT, or a slot released twice: nothing to give back, and the count of slots taken stays right
            return;
        }
        freeSlots[chunk] |= bit;
        acquired--;
        lowestFree = Math.min(lowestFree, chunk);
        while (allocatedChunks >= 2 && isWhollyFree(allocatedChunks - 1) && isWhollyFree(allocatedChunks - 2))
        {
            freeChunk(allocatedChunks - 1);
        }
        lowestFree = Math.min(lowestFree, allocatedChunks);
    }

    @Override
    public int acquiredSlots()
    {
        return acquired;
    }

    /** The chunks whose memory is taken now. */
    int allocatedChunks()
    {
        return allocatedChunks;
    }

    private boolean isWhollyFree(int chunk)
    {
        return freeSlots[chunk] == slotsMask(chunk);
    }

    // the bits of a chunk's slots
    private int slotsMask(int chunk)
    {
        final int count = slotsIn(chunk);
        return count == SLOTS_PER_CHUNK ? WHOLE_CHUNK : (1 << count) - 1;
    }

    // the last chunk may have fewer slots than the others
    private int slotsIn(int chunk)
    {
        return Math.min(SLOTS_PER_CHUNK, slots - chunk * SLOTS_PER_CHUNK);
    }

    private boolean allocateChunk()
    {
        final int chunk = allocatedChunks;
        if (chunk == freeSlots.length)
        {
            return false;
        }
        final int first = chunk * SLOTS_PER_CHUNK;
        final int count = slotsIn(chunk);
        final ByteBuffer memory = ByteBuffer.allocateDirect(count * slotCapacity);
        for (int i = 0; i < count; i++)
        {
            buffers[first + i].wrap(memory, i * slotCapacity, slotCapacity);
        }
        freeSlots[chunk] = slotsMask(chunk);
        allocatedChunks++;
        return true;
    }

    private void freeChunk(int chunk)
    {
        final int first = chunk * SLOTS_PER_CHUNK;
        final ByteBuffer memory = buffers[first].byteBuffer();
        for (int i = 0; i < slotsIn(chunk); i++)
        {
            buffers[first + i].wrap(NOTHING);
        }
        freeSlots[chunk] = 0;
        allocatedChunks--;
        // at once, not when a GC comes: a worker that allocates nothing per message may not see one for hours
        BufferUtil.free(memory);
    }
}
