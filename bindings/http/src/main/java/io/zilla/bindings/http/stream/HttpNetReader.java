/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.stream;

import static io.zilla.engine.binding.buffer.BufferPool.NO_SLOT;

import io.zilla.engine.binding.buffer.BufferPool;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Reads an HTTP/1.1 connection's bytes from its network stream: each Data frame is decoded where it lies, and what the
 * decoder does not take yet (a partial head, body bytes the receiver has no credit for, a pipelined request) is held
 * in a buffer slot until it can. The peer's credit is the slot's capacity less what is held, so the slot never
 * overflows and a slow receiver slows the peer. What the decoder takes from the slot is skipped, not moved: the bytes
 * still held are moved to the slot's start only when what arrives would not fit behind them, so that a large body
 * forwarded a credit at a time is not copied again at every step.
 */
final class HttpNetReader
{
    /** Decodes what it can of the bytes; returns how far it got. */
    @FunctionalInterface
    interface Decoder
    {
        int decode(long traceId, DirectBuffer buffer, int offset, int limit);
    }

    private final StreamSide net;
    private final BufferPool bufferPool;
    private final Decoder decoder;
    private int slot = NO_SLOT;
    private int start;
    private int limit;
    private boolean decoding;

    HttpNetReader(StreamSide net, BufferPool bufferPool, Decoder decoder)
    {
        this.net = net;
        this.bufferPool = bufferPool;
        this.decoder = decoder;
    }

    /** Decodes a Data frame's payload after what is held; false when the rest cannot be held (no slot left). */
    boolean onData(long traceId, OctetsFW payload)
    {
        if (slot == NO_SLOT)
        {
            final int progress;
            decoding = true;
            try
            {
                progress = decoder.decode(traceId, payload.buffer(), payload.offset(), payload.limit());
            }
            finally
            {
                decoding = false;
            }
            final int remaining = payload.limit() - progress;
            if (remaining > 0 && !net.inClosed && !net.outClosed)
            {
                slot = bufferPool.acquire(net.inboundId);
                if (slot == NO_SLOT)
                {
                    return false;
                }
                bufferPool.buffer(slot).putBytes(0, payload.buffer(), progress, remaining);
                start = 0;
                limit = remaining;
            }
        }
        else
        {
            final MutableDirectBuffer held = bufferPool.buffer(slot);
            final int size = payload.sizeof();
            if (limit + size > held.capacity())
            {
                held.putBytes(0, held, start, limit - start);
                limit -= start;
                start = 0;
            }
            held.putBytes(limit, payload.buffer(), payload.offset(), size);
            limit += size;
            decodeHeld(traceId);
        }
        return true;
    }

    /** Decodes what is held, such as once the receiver gave credit; not while a decode runs. */
    void decodeHeld(long traceId)
    {
        if (slot == NO_SLOT || decoding)
        {
            return;
        }
        final MutableDirectBuffer held = bufferPool.buffer(slot);
        final int progress;
        decoding = true;
        try
        {
            progress = decoder.decode(traceId, held, start, limit);
        }
        finally
        {
            decoding = false;
        }
        if (slot == NO_SLOT)
        {
            // released while decoding: the connection is closing
            return;
        }
        if (progress >= limit)
        {
            release();
        }
        else
        {
            start = progress;
        }
    }

    /** How many bytes are held. */
    int held()
    {
        return limit - start;
    }

    /** Gives the peer the credit the slot has room for. */
    void doWindow(long traceId)
    {
        if (!net.inOpened || net.inClosed)
        {
            return;
        }
        final int max = bufferPool.slotCapacity();
        final long ack = net.inSeq - held();
        if (ack != net.inAck || max != net.inMax)
        {
            net.doInWindow(traceId, ack, max, 0);
        }
    }

    void release()
    {
        if (slot != NO_SLOT)
        {
            bufferPool.release(slot);
            slot = NO_SLOT;
            start = 0;
            limit = 0;
        }
    }
}
