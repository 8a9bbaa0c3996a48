/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.test.TestBindingType;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.ResetFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A proxy that loops at run time, where no config check can see it: each stream it takes, it opens onward to itself.
 * When the engine refuses the next lap, it resets the stream it took, and the resets run back down the chain.
 */
final class LoopingBinding extends TestBindingType
{
    static final String TYPE = "looping";

    LoopingBinding()
    {
        super(TYPE, KindConfig.PROXY);
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                return (msgTypeId, buffer, index, length, sender) -> new Lap(context, sender)::onTaken;
            }

            @Override
            public void detach(BindingConfig binding)
            {
            }
        };
    }

    private static final class Lap
    {
        private final EngineContext context;
        private final MessageConsumer taken;
        private final MutableDirectBuffer buffer = new UnsafeBuffer(new byte[256]);
        private final StreamFrames frames = new StreamFrames(buffer);
        private final BeginFW beginRO = new BeginFW();

        private long originId;
        private long routedId;
        private long takenId;

        Lap(EngineContext context, MessageConsumer taken)
        {
            this.context = context;
            this.taken = taken;
        }

        void onTaken(int msgTypeId, DirectBuffer frame, int index, int length)
        {
            if (msgTypeId == BeginFW.TYPE_ID)
            {
                final BeginFW begin = beginRO.wrap(frame, index, index + length);
                originId = begin.originId();
                routedId = begin.routedId();
                takenId = begin.streamId();
                final BeginFW onward = new BeginFW.Builder().wrap(buffer, 0, buffer.capacity())
                    .originId(routedId).routedId(routedId).streamId(context.supplyInitialId(routedId))
                    .sequence(0).acknowledge(0).maximum(0).traceId(begin.traceId())
                    .build();
                if (context.newStream(BeginFW.TYPE_ID, onward.buffer(), onward.offset(), onward.sizeof(), this::onOnward) == null)
                {
                    doReset(begin.traceId());
                }
            }
        }

        void onOnward(int msgTypeId, DirectBuffer frame, int index, int length)
        {
            if (msgTypeId == ResetFW.TYPE_ID)
            {
                doReset(0L);
            }
        }

        private void doReset(long traceId)
        {
            frames.reset(taken, originId, routedId, takenId, 0L, 0L, 0, traceId, null, 0, 0);
        }
    }
}
