/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.binding.stream;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * Builds the frames every binding sends (Begin, End, Abort, Reset, Window) in one scratch buffer and hands
 * each to its receiver, so that bindings share one copy of this code. Reuses its builders: nothing allocates.
 * Data frames stay with each binding, which knows where its payload comes from.
 */
public final class StreamFrames
{
    private final MutableDirectBuffer buffer;
    private final BeginFW.Builder beginRW = new BeginFW.Builder();
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
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum)
            .traceId(traceId);
        if (extension != null)
        {
            builder.extension(extension, extensionOffset, extensionLength);
        }
        final BeginFW begin = builder.build();
        receiver.accept(BeginFW.TYPE_ID, begin.buffer(), begin.offset(), begin.sizeof());
    }

    public void end(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId)
    {
        final EndFW end = endRW.wrap(buffer, 0, buffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum)
            .traceId(traceId)
            .build();
        receiver.accept(EndFW.TYPE_ID, end.buffer(), end.offset(), end.sizeof());
    }

    public void abort(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId)
    {
        final AbortFW abort = abortRW.wrap(buffer, 0, buffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum)
            .traceId(traceId)
            .build();
        receiver.accept(AbortFW.TYPE_ID, abort.buffer(), abort.offset(), abort.sizeof());
    }

    public void reset(MessageConsumer receiver, long originId, long routedId, long streamId, long sequence,
        long acknowledge, int maximum, long traceId, DirectBuffer extension, int extensionOffset, int extensionLength)
    {
        final ResetFW.Builder builder = resetRW.wrap(buffer, 0, buffer.capacity())
            .originId(originId).routedId(routedId).streamId(streamId)
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum)
            .traceId(traceId);
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
            .sequence(sequence).acknowledge(acknowledge).maximum(maximum)
            .traceId(traceId)
            .budgetId(budgetId)
            .padding(padding)
            .build();
        receiver.accept(WindowFW.TYPE_ID, window.buffer(), window.offset(), window.sizeof());
    }
}
