/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.stream;

import org.agrona.collections.Long2ObjectHashMap;

/**
 * The worker's open streams by initial id, found by indexing an array with the slot their id carries.
 * <p>
 * Every frame the dispatcher delivers starts with this lookup, and with thousands of streams per worker each lookup
 * misses the cache: a hash map's keys and values are two misses before the pair itself, an array's slot one. The
 * worker takes each new id's slot from {@link #nextSlot()}, a slot free now; the dispatcher files the stream there
 * when its Begin comes. Any id still works: one whose slot is taken by then (an id handed out and used much later, or
 * not made here at all) goes to a hash map beside the array, and a lookup that misses the array looks there.
 */
final class StreamTable
{
    /** The bits of an id's sequence (StreamIds) that name its slot; the bits above them count ids made. */
    static final int SLOT_BITS = 24;
    static final int SLOT_MASK = (1 << SLOT_BITS) - 1;

    private static final int INITIAL_CAPACITY = 1024;

    private StreamPair[] slots = new StreamPair[INITIAL_CAPACITY];
    private final Long2ObjectHashMap<StreamPair> overflow = new Long2ObjectHashMap<>();
    private int filed;
    private int cursor;

    /** The slot of an id's sequence. */
    static int slotOf(long streamId)
    {
        return (int) (streamId >>> 1) & SLOT_MASK;
    }

    StreamPair get(long initialId)
    {
        final int slot = slotOf(initialId);
        final StreamPair[] slots = this.slots;
        final StreamPair pair = slot < slots.length ? slots[slot] : null;
        return pair != null && pair.initialId == initialId ? pair : overflow.isEmpty() ? null : overflow.get(initialId);
    }

    void put(StreamPair pair)
    {
        final int slot = slotOf(pair.initialId);
        if (slot < slots.length && slots[slot] == null)
        {
            slots[slot] = pair;
            filed++;
        }
        else
        {
            overflow.put(pair.initialId, pair);
        }
    }

    void remove(StreamPair pair)
    {
        final int slot = slotOf(pair.initialId);
        if (slot < slots.length && slots[slot] == pair)
        {
            slots[slot] = null;
            filed--;
        }
        else
        {
            overflow.remove(pair.initialId);
        }
    }

    int size()
    {
        return filed + overflow.size();
    }

    /**
     * A slot free now, for a new id. The array is kept at most half full, so that the search ends in a step or two;
     * it grows by doubling, which keeps every slot handed out valid. The cursor moves on past the slot, so that ids
     * made before their Begins are filed get slots of their own.
     */
    int nextSlot()
    {
        if (filed >= slots.length >> 1 && slots.length <= SLOT_MASK)
        {
            final StreamPair[] grown = new StreamPair[slots.length << 1];
            System.arraycopy(slots, 0, grown, 0, slots.length);
            slots = grown;
        }
        final int mask = slots.length - 1;
        int slot = cursor;
        for (int tries = 0; tries < slots.length && slots[slot] != null; tries++)
        {
            slot = slot + 1 & mask;
        }
        cursor = slot + 1 & mask;
        return slot;
    }
}
