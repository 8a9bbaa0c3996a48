/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class StreamTableTest
{
    private final StreamTable table = new StreamTable();
    private long count;

    @Test
    void shouldFindAStreamByTheSlotItsIdCarries()
    {
        final StreamPair pair = file(newId());
        assertSame(pair, table.get(pair.initialId));
        assertNull(table.get(StreamIds.initialId(0, count + 1, StreamTable.slotOf(pair.initialId))),
            "another id of the same slot is not the stream");
        table.remove(pair);
        assertNull(table.get(pair.initialId));
        assertEquals(0, table.size());
    }

    @Test
    void shouldFileAnIdWhoseSlotIsTakenBesideTheArray()
    {
        final long first = newId();
        // an id of the same slot, made elsewhere: its stream is filed and found all the same
        final long second = StreamIds.initialId(0, 1_000L, StreamTable.slotOf(first));
        final StreamPair one = file(first);
        final StreamPair two = file(second);
        assertSame(one, table.get(first));
        assertSame(two, table.get(second));
        assertEquals(2, table.size());
        table.remove(one);
        assertSame(two, table.get(second), "found in the overflow once the slot is free");
        final StreamPair three = file(newId());
        assertSame(three, table.get(three.initialId));
        table.remove(two);
        assertNull(table.get(second));
        assertSame(three, table.get(three.initialId));
        assertEquals(1, table.size());
    }

    @Test
    void shouldFindIdsNotMadeForTheTable()
    {
        // ids of a test binding, or of another layout: any long
        final StreamPair pair = file(0x7fL << 56 | 0x5555_5555_5555L | 1L);
        assertSame(pair, table.get(pair.initialId));
        final StreamPair high = file(StreamIds.initialId(3, 42L, StreamTable.SLOT_MASK));
        assertSame(high, table.get(high.initialId), "a slot beyond the array's length");
    }

    @Test
    void shouldHandOutDistinctFreeSlotsAsTheTableGrows()
    {
        final List<StreamPair> open = new ArrayList<>();
        final Set<Integer> slots = new HashSet<>();
        for (int i = 0; i < 10_000; i++)
        {
            final StreamPair pair = file(newId());
            assertEquals(true, slots.add(StreamTable.slotOf(pair.initialId)), "slot of stream " + i + " taken");
            open.add(pair);
        }
        for (StreamPair pair : open)
        {
            assertSame(pair, table.get(pair.initialId));
        }
        assertEquals(10_000, table.size());
        // half of them go; the slots handed out next are free ones
        for (int i = 0; i < open.size(); i += 2)
        {
            table.remove(open.get(i));
            slots.remove(StreamTable.slotOf(open.get(i).initialId));
        }
        for (int i = 0; i < 5_000; i++)
        {
            final long id = newId();
            assertEquals(true, slots.add(StreamTable.slotOf(id)), "a free slot");
            file(id);
        }
        assertEquals(10_000, table.size());
    }

    @Test
    void shouldNotHandOutTheSameSlotTwiceBeforeItIsFiled()
    {
        final long first = newId();
        final long second = newId();
        assertNotEquals(StreamTable.slotOf(first), StreamTable.slotOf(second));
    }

    private long newId()
    {
        return StreamIds.initialId(1, ++count, table.nextSlot());
    }

    private StreamPair file(long initialId)
    {
        final StreamPair pair = new StreamPair().init(initialId, 1L, 2L, null, null, null);
        table.put(pair);
        return pair;
    }
}
