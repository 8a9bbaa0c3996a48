/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.buffer;

import org.agrona.MutableDirectBuffer;

/**
 * A slab of fixed-size buffers, one worker's: a stream takes a slot when bytes must wait and gives it back
 * as soon as they are gone. A full slab is the stream's problem (reset it), never the worker's.
 */
public interface BufferPool
{
    int NO_SLOT = -1;

    /** The size of every slot. */
    int slotCapacity();

    /** Takes a free slot, or returns {@link #NO_SLOT} when none is left. */
    int acquire(long streamId);

    /** The buffer of a taken slot, {@link #slotCapacity()} bytes from index 0. */
    MutableDirectBuffer buffer(int slot);

    /** Gives a slot back. */
    void release(int slot);

    /** How many slots are taken. */
    int acquiredSlots();
}
