/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.stream;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.internal.stream.Frames;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * One stream as the binding at one of its ends sees it: the direction it receives (the peer's Data in, our Window
 * out) and the direction it sends (our Data out, the peer's Window in), each with its sequence, acknowledgement,
 * maximum and state, and the frames it sends guarded so that each is sent once and only on an open direction. For
 * a stream the binding accepted, it receives on the initial id and sends on the reply id; for one it opened, the
 * other way round.
 *
 * <p>The state is in public fields, as a binding's per-stream state always was: bindings read and advance it
 * where their protocol says (a binding that holds bytes acknowledges less than it received). Nothing allocates.
 */
public final class StreamSide
{
    private final StreamFrames frames;

    public MessageConsumer target;
    public long originId;
    public long routedId;
    public long inboundId;
    public long outboundId;

    // the direction this side receives: its Data, our Window
    public long inSeq;
    public long inAck;
    public int inMax;
    public boolean inOpened;
    public boolean inClosed;

    // the direction this side sends: our Data, its Window
    public long outSeq;
    public long outAck;
    public int outMax;
    public int outPad;
    public boolean outOpened;
    public boolean outClosed;

    public StreamSide(StreamFrames frames)
    {
        this.frames = frames;
    }

    /** Names the stream: who receives what this side sends, the ids of the binding pair and of each direction. */
    public void set(MessageConsumer target, long originId, long routedId, long inboundId, long outboundId)
    {
        this.target = target;
        this.originId = originId;
        this.routedId = routedId;
        this.inboundId = inboundId;
        this.outboundId = outboundId;
    }

    /**
     * Forgets the stream this side was, so that the binding may use it for another: both directions back to not
     * opened. Its frames must then be told from the new stream's by {@link #owns}, since late ones may still come.
     */
    public void reset()
    {
        target = null;
        originId = 0L;
        routedId = 0L;
        inboundId = 0L;
        outboundId = 0L;
        inSeq = 0L;
        inAck = 0L;
        inMax = 0;
        inOpened = false;
        inClosed = false;
        outSeq = 0L;
        outAck = 0L;
        outMax = 0;
        outPad = 0;
        outOpened = false;
        outClosed = false;
    }

    /** Whether the frame at {@code index} belongs to this side's stream, rather than to one it was before. */
    public boolean owns(DirectBuffer buffer, int index)
    {
        final long streamId = buffer.getLong(index + Frames.STREAM_ID_OFFSET);
        return streamId == inboundId || streamId == outboundId;
    }

    /** The peer's Begin opened the inbound direction. */
    public void onInBegin(BeginFW begin)
    {
        inOpened = true;
        inSeq = begin.sequence();
        inAck = begin.acknowledge();
    }

    /** Credit left for Data on the outbound direction, after one frame's padding. */
    public int outCredit()
    {
        return outOpened && !outClosed ? outMax - (int) (outSeq - outAck) - outPad : 0;
    }

    /** Whether a Data frame of {@code reserved} at {@code sequence} is within the credit this side was given. */
    private boolean inWithin(long sequence, int reserved)
    {
        return sequence == inSeq && inSeq + reserved <= inAck + inMax;
    }

    /**
     * Takes in a Data frame of {@code reserved} at {@code sequence}: when it is within the credit given, the inbound
     * sequence moves past it.
     *
     * @return false, with nothing moved, when it is not: the sender broke flow control and nothing it sends can be
     *         trusted
     */
    public boolean onInData(long sequence, int reserved)
    {
        final boolean within = inWithin(sequence, reserved);
        if (within)
        {
            inSeq += reserved;
        }
        return within;
    }

    /**
     * The peer's Window on the outbound direction. Its budget id is not kept: no binding shares a budget yet, and a
     * side is one of several per connection, where 8 bytes more make the object 8 bytes larger (112 B, not 104).
     */
    public void onOutWindow(long acknowledge, int maximum, int padding, long budgetId)
    {
        outAck = Math.max(outAck, acknowledge);
        outMax = maximum;
        outPad = padding;
    }

    public void doOutBegin(long traceId, DirectBuffer extension, int offset, int length)
    {
        if (!outOpened)
        {
            outOpened = true;
            frames.begin(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId, extension, offset, length);
        }
    }

    /** Sends {@code length} bytes as one complete Data frame: the caller checked {@link #outCredit()}. */
    public void doOutData(long traceId, DirectBuffer buffer, int offset, int length)
    {
        final int reserved = length + outPad;
        frames.data(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId, 0x03, 0L, reserved, buffer,
            offset, length, null, 0, 0);
        outSeq += reserved;
    }

    /**
     * Claims room for a Data frame of up to {@code maxLength} payload bytes where its receiver will read it, so that
     * a binding that frames the payload (a chunk's size before it, say) writes framing and payload once, into
     * {@link #outBuffer()}; {@link #commitOutData} sends it. Nothing else may be sent between the two.
     *
     * @return where the payload goes in {@link #outBuffer()}, or a negative value when the receiver cannot be
     *         written in place now (then send a copy with {@link #doOutData(long, DirectBuffer, int, int)})
     */
    public int claimOutData(int maxLength)
    {
        return target instanceof InPlaceWriter ring ? frames.claimData(ring, maxLength) : -1;
    }

    /** The buffer the index of {@link #claimOutData} points into. */
    public MutableDirectBuffer outBuffer()
    {
        return ((InPlaceWriter) target).buffer();
    }

    /** Sends the Data frame claimed by {@link #claimOutData} with its first {@code length} payload bytes, as one. */
    public void commitOutData(long traceId, int payloadIndex, int length)
    {
        final int reserved = length + outPad;
        frames.commitData((InPlaceWriter) target, payloadIndex, originId, routedId, outboundId, outSeq, outAck, outMax,
            traceId, 0x03, 0L, reserved, length);
        outSeq += reserved;
    }

    /** Sends a Data frame that forwards another's {@code payload} (null: none) with its flags and reservation. */
    public void doOutData(long traceId, int flags, int reserved, OctetsFW payload)
    {
        frames.data(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId, flags, 0L, reserved, payload);
        outSeq += reserved;
    }

    public void doOutEnd(long traceId)
    {
        if (outOpened && !outClosed)
        {
            frames.end(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId);
        }
        outClosed = true;
    }

    public void doOutAbort(long traceId)
    {
        if (outOpened && !outClosed)
        {
            frames.abort(target, originId, routedId, outboundId, outSeq, outAck, outMax, traceId);
        }
        outClosed = true;
    }

    public void doInWindow(long traceId, long acknowledge, int maximum, int padding)
    {
        if (inOpened && !inClosed)
        {
            inAck = acknowledge;
            inMax = maximum;
            frames.window(target, originId, routedId, inboundId, inSeq, inAck, inMax, traceId, 0L, padding);
        }
    }

    public void doInReset(long traceId)
    {
        doInReset(traceId, null, 0, 0);
    }

    /** Resets the inbound direction with an extension (null: none), such as a protocol's error. */
    public void doInReset(long traceId, DirectBuffer extension, int offset, int length)
    {
        if (inOpened && !inClosed)
        {
            frames.reset(target, originId, routedId, inboundId, inSeq, inAck, inMax, traceId, extension, offset, length);
        }
        inClosed = true;
    }

    /** Both directions are closed or were never opened. */
    public boolean closed()
    {
        return (inClosed || !inOpened) && (outClosed || !outOpened);
    }
}
