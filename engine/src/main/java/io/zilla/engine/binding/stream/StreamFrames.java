/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.stream;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.internal.stream.Frames;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Builds the frames every binding sends (Begin, Data, End, Abort, Reset, Window) and hands each to its receiver,
 * so that bindings share one copy of this code. Reuses its builders: nothing allocates. Data is built in place
 * when the receiver is an {@link InPlaceWriter} (the worker's ring), so that its payload is copied once; the
 * other frames are small and built in one scratch buffer. Every field is set, in order, even to its default: a
 * builder checks a field set right after the one before with one comparison, and a skipped one costs a detour.
 */
public final class StreamFrames
{
    /** Data's fixed part, up to and with the payload's length. */
    private static final int DATA_HEADER_SIZE = Frames.DATA_LENGTH_OFFSET + Integer.BYTES;

    private final MutableDirectBuffer buffer;
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
    private final DataFW.Builder dataRW = new DataFW.Builder();
    private final EndFW.Builder endRW = new EndFW.Builder();
    private final AbortFW.Builder abortRW = new AbortFW.Builder();
    private final ResetFW.Builder resetRW = new ResetFW.Builder();
    private final WindowFW.Builder windowRW = new WindowFW.Builder();

    /** @param buffer where frames are built, such as {@code EngineContext.writeBuffer()} */
    public StreamFrames(MutableDirectBuffer buffer)
    {
        this.buffer = buffer;
    }

    public void begin(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, DirectBuffer extension, int extensionOffset, int extensionLength)
    {
        final BeginFW.Builder builder = beginRW.wrap(buffer, 0, buffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum).timestamp(0L)
            .traceId(traceId).authorization(0L).affinity(0L);
        if (extension != null)
        {
            builder.extension(extension, extensionOffset, extensionLength);
        }
        final BeginFW begin = builder.build();
        receiver.accept(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof());
    }

    /**
     * Sends a Data frame.
     *
     * @param payload the payload, or null for a Data frame without one (its length is then -1)
     * @param extension the extension, or null
     */
    public void data(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, int flags, long budgetId, int reserved, DirectBuffer payload,
        int offset, int length, DirectBuffer extension, int extensionOffset, int extensionLength)
    {
        final int frameLength = DATA_HEADER_SIZE + (payload != null ? length : 0) + (extension != null ? extensionLength : 0);
        if (receiver instanceof InPlaceWriter ring)
        {
            final int index = ring.claim(DataFW.TYPE_ID, frameLength);
            if (index >= 0)
            {
                try
                {
                    final DataFW data = buildData(ring.buffer(), index, frameLength, originId, routedId, streamId, sequence,
                        acknowledge, maximum, traceId, flags, budgetId, reserved, payload, offset, length, extension,
                        extensionOffset, extensionLength);
                    if (data.sizeof() != frameLength)
                    {
                        // the reader takes the rest of a frame for its extension: a frame shorter than its claim is wrong
                        throw new IllegalStateException("Data built in " + data.sizeof() + " of " + frameLength + " bytes");
                    }
                }
                catch (RuntimeException ex)
                {
                    ring.abort(index);
                    throw ex;
                }
                ring.commit(index);
                return;
            }
        }
        final DataFW data = buildData(buffer, 0, buffer.capacity(), originId, routedId, streamId, sequence, acknowledge,
            maximum, traceId, flags, budgetId, reserved, payload, offset, length, extension, extensionOffset, extensionLength);
        receiver.accept(DataFW.TYPE_ID, data.buffer(), data.offset(), data.sizeof());
    }

    /** Sends a Data frame that carries {@code payload} (null: none), as a binding forwarding another's Data does. */
    public void data(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, int flags, long budgetId, int reserved, OctetsFW payload)
    {
        data(receiver, originId, routedId, streamId, sequence, acknowledge, maximum, traceId, flags, budgetId, reserved,
            payload != null ? payload.buffer() : null, payload != null ? payload.offset() : 0,
            payload != null ? payload.sizeof() : 0, null, 0, 0);
    }

    /**
     * Claims room in the ring for a Data frame whose payload is then written in place, such as by a socket read,
     * so that it is not copied there; {@link #commitData} completes it.
     *
     * @return where the payload goes in {@code ring.buffer()}, or a negative value when the ring has no room now
     */
    public int claimData(InPlaceWriter ring, int maxLength)
    {
        final int index = ring.claim(DataFW.TYPE_ID, DATA_HEADER_SIZE + maxLength);
        return index >= 0 ? index + DATA_HEADER_SIZE : index;
    }

    /**
     * Completes the Data frame claimed by {@link #claimData} once {@code length} bytes of payload are at
     * {@code payloadIndex}, and gives the rest of the claim back; no payload (0 or less) gives all of it back.
     */
    public void commitData(InPlaceWriter ring, int payloadIndex, long originId, long routedId, long streamId,
        long sequence, long acknowledge, int maximum, long traceId, int flags, long budgetId, int reserved, int length)
    {
        final int index = payloadIndex - DATA_HEADER_SIZE;
        if (length <= 0)
        {
            ring.abort(index);
            return;
        }
        final MutableDirectBuffer target = ring.buffer();
        dataHeader(target, index, payloadIndex, originId, routedId, streamId, sequence, acknowledge, maximum, traceId, flags,
            budgetId, reserved);
        // the payload is already in place: only its length is left to write, as the builder would have
        target.putInt(index + Frames.DATA_LENGTH_OFFSET, length);
        ring.commit(index, DATA_HEADER_SIZE + length);
    }

    /** Writes Data's fields up to {@code reserved}: the payload and the extension are the caller's. */
    private DataFW.Builder dataHeader(MutableDirectBuffer target, int index, int maxLimit, long originId, long routedId,
        long streamId, long sequence, long acknowledge, int maximum, long traceId, int flags, long budgetId, int reserved)
    {
        return dataRW.wrap(target, index, maxLimit)
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum).timestamp(0L)
            .traceId(traceId).authorization(0L)
            .flags(flags)
            .budgetId(budgetId)
            .reserved(reserved);
    }

    private DataFW buildData(MutableDirectBuffer target, int index, int maxLength, long originId, long routedId,
        long streamId, long sequence, long acknowledge, int maximum, long traceId, int flags, long budgetId, int reserved,
        DirectBuffer payload, int offset, int length, DirectBuffer extension, int extensionOffset, int extensionLength)
    {
        final DataFW.Builder builder = dataHeader(target, index, index + maxLength, originId, routedId, streamId, sequence,
            acknowledge, maximum, traceId, flags, budgetId, reserved);
        if (payload != null)
        {
            builder.payload(payload, offset, length);
        }
        if (extension != null)
        {
            builder.extension(extension, extensionOffset, extensionLength);
        }
        return builder.build();
    }

    public void end(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId)
    {
        final EndFW end = endRW.wrap(buffer, 0, buffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum).timestamp(0L)
            .traceId(traceId).authorization(0L)
            .build();
        receiver.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
    }

    public void abort(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId)
    {
        final AbortFW abort = abortRW.wrap(buffer, 0, buffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum).timestamp(0L)
            .traceId(traceId).authorization(0L)
            .build();
        receiver.accept(AbortFW.TYPE_ID, abort.buffer(), abort.offset(), abort.sizeof());
    }

    public void reset(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, DirectBuffer extension, int extensionOffset, int extensionLength)
    {
        final ResetFW.Builder builder = resetRW.wrap(buffer, 0, buffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum).timestamp(0L)
            .traceId(traceId).authorization(0L);
        if (extension != null)
        {
            builder.extension(extension, extensionOffset, extensionLength);
        }
        final ResetFW reset = builder.build();
        receiver.accept(ResetFW.TYPE_ID, reset.buffer(), reset.offset(), reset.sizeof());
    }

    public void window(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, long budgetId, int padding)
    {
        final WindowFW window = windowRW.wrap(buffer, 0, buffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum).timestamp(0L)
            .traceId(traceId).authorization(0L)
            .budgetId(budgetId)
            .padding(padding)
            .minimum(0).capabilities(0)
            .build();
        receiver.accept(WindowFW.TYPE_ID, window.buffer(), window.offset(), window.sizeof());
    }
}
