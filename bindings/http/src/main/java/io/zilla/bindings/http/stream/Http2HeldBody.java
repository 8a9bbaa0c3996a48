/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;

import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamSide;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * The body bytes of one HTTP/2 stream that came within the window the peer was given but beyond the credit of the
 * application they go to (a server's request body, a client's response body): passed on as far as that credit goes,
 * the rest held in a buffer slot of the stream's own until the application's next Window. The slot is taken when
 * first needed and given back once empty. What is passed on is skipped, not moved: the bytes still held are moved
 * to the slot's start only when what arrives would not fit behind them, so that a large body passed on a credit at a
 * time is not copied again at every step.
 */
final class Http2HeldBody
{
    private final BufferPool bufferPool;
    private final int maxFrame;
    private int slot = NO_SLOT;
    private int held;
    private int start;

    Http2HeldBody(BufferPool bufferPool, int maxFrame)
    {
        this.bufferPool = bufferPool;
        this.maxFrame = maxFrame;
    }

    /** Passes on what {@code side}'s credit allows and holds the rest; false when it cannot be held (no slot left). */
    boolean deliver(StreamSide side, long traceId, DirectBuffer buffer, int offset, int length)
    {
        int forwarded = 0;
        if (held == 0)
        {
            forwarded = Math.min(length, Math.min(Math.max(side.outCredit(), 0), maxFrame));
            if (forwarded > 0)
            {
                side.doOutData(traceId, buffer, offset, forwarded);
            }
        }
        final int rest = length - forwarded;
        if (rest > 0)
        {
            if (slot == NO_SLOT)
            {
                slot = bufferPool.acquire(side.outboundId);
            }
            if (slot == NO_SLOT || held + rest > bufferPool.slotCapacity())
            {
                return false;
            }
            final MutableDirectBuffer slotBuffer = bufferPool.buffer(slot);
            if (start + held + rest > slotBuffer.capacity())
            {
                slotBuffer.putBytes(0, slotBuffer, start, held);
                start = 0;
            }
            slotBuffer.putBytes(start + held, buffer, offset + forwarded, rest);
            held += rest;
        }
        return true;
    }

    /** Passes on what waits as far as {@code side}'s credit goes. */
    void flush(StreamSide side, long traceId)
    {
        while (held > 0)
        {
            final MutableDirectBuffer buffer = bufferPool.buffer(slot);
            final int forwarded = Math.min(held, Math.min(Math.max(side.outCredit(), 0), maxFrame));
            if (forwarded <= 0)
            {
                break;
            }
            side.doOutData(traceId, buffer, start, forwarded);
            start += forwarded;
            held -= forwarded;
        }
        if (held == 0)
        {
            clear();
        }
    }

    int held()
    {
        return held;
    }

    /** Drops what waits and gives the slot back. */
    void clear()
    {
        held = 0;
        start = 0;
        if (slot != NO_SLOT)
        {
            bufferPool.release(slot);
            slot = NO_SLOT;
        }
    }
}
