/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.buffer;

import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;
import static io.zilla.engine.internal.buffer.SlabBufferPool.SLOTS_PER_CHUNK;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.agrona.MutableDirectBuffer;
import org.junit.jupiter.api.Test;

class SlabBufferPoolTest
{
    private static final int CAPACITY = 64 * 1024;

    @Test
    void shouldGiveEverySlotOnceAndNoMore()
    {
        final SlabBufferPool pool = new SlabBufferPool(128, 40);
        final Set<Integer> taken = new HashSet<>();
        for (int i = 0; i < 40; i++)
        {
            final int slot = pool.acquire(1L);
            assertNotEquals(NO_SLOT, slot);
            assertTrue(taken.add(slot), "slot " + slot + " given twice");
            pool.buffer(slot).putLong(120, slot);
        }
        assertEquals(NO_SLOT, pool.acquire(1L));
        assertEquals(40, pool.acquiredSlots());
        for (int slot : taken)
        {
            assertEquals(slot, pool.buffer(slot).getLong(120), "each slot its own memory");
        }
    }

    @Test
    void shouldGiveBackTheMemoryOfABurstOnceItIsOver()
    {
        final SlabBufferPool pool = new SlabBufferPool(CAPACITY, 1024);
        final List<Integer> burst = acquire(pool, 10 * SLOTS_PER_CHUNK);
        assertEquals(10, pool.allocatedChunks());
        final long during = directMemoryUsed();

        // released in the order taken, as a burst of requests ends: only the spare chunk stays
        burst.forEach(pool::release);
        assertEquals(1, pool.allocatedChunks());
        assertEquals(0, pool.acquiredSlots());
        // the count is the JVM's: a cleaner freeing an earlier test's buffers meanwhile makes the drop larger, never smaller
        final long freed = during - directMemoryUsed();
        assertTrue(freed >= 9L * SLOTS_PER_CHUNK * CAPACITY, "the memory of 9 chunks freed at once: " + freed);
    }

    @Test
    void shouldIgnoreASlotReleasedTwiceOrNoSlot()
    {
        final SlabBufferPool pool = new SlabBufferPool(128, 1024);
        final int first = pool.acquire(1L);
        final int second = pool.acquire(1L);
        pool.release(first);
        pool.release(first);
        pool.release(NO_SLOT);
        assertEquals(1, pool.acquiredSlots());
        assertEquals(first, pool.acquire(1L));
        assertNotEquals(second, pool.acquire(1L), "a slot in use is not given again");
        assertEquals(3, pool.acquiredSlots());
    }

    @Test
    void shouldKeepTheSlotsInUsePackedAtTheBottom()
    {
        final SlabBufferPool pool = new SlabBufferPool(128, 1024);
        final List<Integer> slots = acquire(pool, 4 * SLOTS_PER_CHUNK);
        // every other slot released, then as many taken again: they go to the holes, not above them
        for (int i = 0; i < slots.size(); i += 2)
        {
            pool.release(slots.get(i));
        }
        for (int i = 0; i < slots.size() / 2; i++)
        {
            assertTrue(pool.acquire(1L) < 4 * SLOTS_PER_CHUNK);
        }
        assertEquals(4, pool.allocatedChunks());
    }

    @Test
    void shouldNotAllocateAndFreeAChunkEachTimeTheLoadCrossesItsEdge()
    {
        final SlabBufferPool pool = new SlabBufferPool(128, 1024);
        acquire(pool, SLOTS_PER_CHUNK);
        for (int i = 0; i < 100; i++)
        {
            final int slot = pool.acquire(1L);
            assertEquals(SLOTS_PER_CHUNK, slot);
            pool.release(slot);
            assertEquals(2, pool.allocatedChunks(), "the chunk above the busy one stays as a spare");
        }
    }

    @Test
    void shouldFailABoundsCheckWhereASlotOfAFreedChunkIsStillUsed()
    {
        final SlabBufferPool pool = new SlabBufferPool(128, 1024);
        final List<Integer> slots = acquire(pool, 3 * SLOTS_PER_CHUNK);
        final MutableDirectBuffer stale = pool.buffer(slots.get(slots.size() - 1));
        slots.forEach(pool::release);
        assertEquals(1, pool.allocatedChunks());
        assertThrows(IndexOutOfBoundsException.class, () -> stale.putLong(0, 1L));

        // and the slot works again once its chunk is allocated again
        acquire(pool, 3 * SLOTS_PER_CHUNK);
        stale.putLong(0, 7L);
        assertEquals(7L, pool.buffer(slots.get(slots.size() - 1)).getLong(0));
    }

    private static List<Integer> acquire(SlabBufferPool pool, int count)
    {
        final List<Integer> slots = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            slots.add(pool.acquire(1L));
        }
        return slots;
    }

    private static long directMemoryUsed()
    {
        long used = 0;
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class))
        {
            if (pool.getName().equals("direct"))
            {
                used = pool.getMemoryUsed();
            }
        }
        return used;
    }
}
