/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2IntHashMap;
import org.agrona.collections.IntHashSet;

/**
 * Frames of a merged stream that cannot go on yet, in the order they came, each tagged with a partition: on the fetch
 * side, a partition's records while another partition's fragmented record is under way; on the produce side, the
 * application's records while their partition's produce stream has no credit (or is not open yet). What it holds is
 * bounded by the credit the merged stream gave, so it is small; its buffers are made on first use and grow only to
 * the largest backlog seen: nothing is allocated per frame.
 */
final class KafkaMergedFrameQueue
{
    /** Each entry: its length, the frame's type, the partition, the credit it holds, then the frame's bytes. */
    private static final int LENGTH_OFFSET = 0;
    private static final int TYPE_OFFSET = LENGTH_OFFSET + Integer.BYTES;
    private static final int PARTITION_OFFSET = TYPE_OFFSET + Integer.BYTES;
    private static final int RESERVED_OFFSET = PARTITION_OFFSET + Integer.BYTES;
    private static final int FRAME_OFFSET = RESERVED_OFFSET + Integer.BYTES;

    /** Takes a frame of the queue, or leaves it there for later. */
    interface Handler
    {
        boolean onFrame(int msgTypeId, DirectBuffer buffer, int index, int length, int partition, int reserved);
    }

    private final Int2IntHashMap counts = new Int2IntHashMap(-1);
    private final IntHashSet blocked = new IntHashSet();
    private MutableDirectBuffer entries;
    private MutableDirectBuffer spare;
    private int limit;
    private int reserved;

    boolean isEmpty()
    {
        return limit == 0;
    }

    /** Whether a frame of the partition waits. */
    boolean holds(int partition)
    {
        return count(partition) > 0;
    }

    /** The credit the frames held account for. */
    int reserved()
    {
        return reserved;
    }

    void add(int msgTypeId, DirectBuffer buffer, int index, int length, int partition, int credit)
    {
        if (entries == null)
        {
            entries = new ExpandableArrayBuffer(Math.max(4096, length << 2));
            spare = new ExpandableArrayBuffer(Math.max(4096, length << 2));
        }
        final int entryLength = FRAME_OFFSET + length;
        entries.putInt(limit + LENGTH_OFFSET, entryLength);
        entries.putInt(limit + TYPE_OFFSET, msgTypeId);
        entries.putInt(limit + PARTITION_OFFSET, partition);
        entries.putInt(limit + RESERVED_OFFSET, credit);
        entries.putBytes(limit + FRAME_OFFSET, buffer, index, length);
        limit += entryLength;
        reserved += credit;
        counts.put(partition, count(partition) + 1);
    }

    /**
     * Offers the frames to the handler in order, once each; a frame the handler leaves stays, and so do the later
     * frames of its partition (a partition's order is kept), or every later frame when {@code strict}.
     *
     * @return how many frames the handler took
     */
    int drain(Handler handler, boolean strict)
    {
        int taken = 0;
        if (limit > 0)
        {
            final MutableDirectBuffer source = entries;
            final int sourceLimit = limit;
            // the frames left are written to the spare buffer, which becomes the queue: the handler may add meanwhile
            entries = spare;
            spare = source;
            limit = 0;
            blocked.clear();
            boolean stopped = false;
            for (int offset = 0; offset < sourceLimit; )
            {
                final int entryLength = source.getInt(offset + LENGTH_OFFSET);
                final int msgTypeId = source.getInt(offset + TYPE_OFFSET);
                final int partition = source.getInt(offset + PARTITION_OFFSET);
                final int credit = source.getInt(offset + RESERVED_OFFSET);
                reserved -= credit;
                counts.put(partition, count(partition) - 1);
                final boolean offered = !stopped && !blocked.contains(partition);
                if (offered && handler.onFrame(msgTypeId, source, offset + FRAME_OFFSET, entryLength - FRAME_OFFSET, partition,
                    credit))
                {
                    taken++;
                }
                else
                {
                    blocked.add(partition);
                    stopped |= strict;
                    add(msgTypeId, source, offset + FRAME_OFFSET, entryLength - FRAME_OFFSET, partition, credit);
                }
                offset += entryLength;
            }
        }
        return taken;
    }

    private int count(int partition)
    {
        return Math.max(counts.get(partition), 0);
    }

    void clear()
    {
        limit = 0;
        reserved = 0;
        counts.clear();
    }
}
