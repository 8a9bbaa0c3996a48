/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.tls.stream;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import org.agrona.DirectBuffer;

/**
 * One stream as one side of a tls connection sees it: the direction it receives (its Data in, our Window out) and
 * the direction it sends (our Data out, its Window in), each with its sequence, acknowledgement, maximum and
 * state, and the frames it sends guarded so that each is sent once and only on an open direction. For a stream the
 * binding accepted, it receives on the initial id and sends on the reply id; for one it opened, the other way.
 */
final class TlsStreamSide
{
    private final StreamFrames frames;

    MessageConsumer target;
    long originId;
    long routedId;
    long inboundId;
    long outboundId;

    // the direction this side receives: its Data, our Window
    long inSeq;
    long inAck;
    int inMax;
    boolean inOpened;
    boolean inClosed;

    // the direction this side sends: our Data, its Window
    long outSeq;
    long outAck;
    int outMax;
    int outPad;
    long outBudgetId;
    boolean outOpened;
    boolean outClosed;

    TlsStreamSide(StreamFrames frames)
    {
        this.frames = frames;
    }

    void set(MessageConsumer target, long originId, long routedId, long inboundId, long outboundId)
    {
        this.target = target;
        this.originId = originId;
        this.routedId = routedId;
        this.inboundId = inboundId;
        this.outboundId = outboundId;
    }

    /** Credit left for Data on the outbound direction, after one frame's padding. */
    int outCredit()
    {
        return outOpened && !outClosed ? outMax - (int) (outSeq - outAck) - outPad : 0;
    }

    /** Whether a Data frame of {@code reserved} at {@code sequence} is within the credit this side was given. */
    boolean inWithin(long sequence, int reserved)
    {
        return sequence == inSeq && inSeq + reserved <= inAck + inMax;
    }

    void onOutWindow(long acknowledge, int maximum, int padding, long budgetId)
    {
        outAck = Math.max(outAck, acknowledge);
        outMax = maximum;
        outPad = padding;
        outBudgetId = budgetId;
    }

    void doOutBegin(long traceId, DirectBuffer extension, int offset, int length)
    {
        if (!outOpened)
        {
            outOpened = true;
            frames.begin(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId, extension, offset, length);
        }
    }

    /** Sends {@code length} bytes as one Data frame: the caller checked {@link #outCredit()}. */
    void doOutData(long traceId, DirectBuffer buffer, int offset, int length)
    {
        final int reserved = length + outPad;
        frames.data(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId, 0x03, 0L, reserved, buffer,
            offset, length, null, 0, 0);
        outSeq += reserved;
    }

    void doOutEnd(long traceId)
    {
        if (outOpened && !outClosed)
        {
            frames.end(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId);
        }
        outClosed = true;
    }

    void doOutAbort(long traceId)
    {
        if (outOpened && !outClosed)
        {
            frames.abort(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId);
        }
        outClosed = true;
    }

    void doInWindow(long traceId, long acknowledge, int maximum, int padding)
    {
        if (inOpened && !inClosed)
        {
            inAck = acknowledge;
            inMax = maximum;
            frames.window(target, originId, routedId, inboundId, inSeq, inAck, inMax, traceId, 0L, padding);
        }
    }

    void doInReset(long traceId)
    {
        if (inOpened && !inClosed)
        {
            frames.reset(target, originId, routedId, inboundId, inSeq, inAck, inMax, traceId, null, 0, 0);
        }
        inClosed = true;
    }

    boolean closed()
    {
        return (inClosed || !inOpened) && (outClosed || !outOpened);
    }
}
