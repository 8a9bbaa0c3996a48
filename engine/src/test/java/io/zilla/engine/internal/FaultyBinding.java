/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.engine.internal;

import java.nio.charset.StandardCharsets;

import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.test.TestBindingType;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A server binding that misbehaves on request, to show that one stream's failure stays with that stream: on
 * Data {@code boom} it throws; on Data {@code flood} it writes frames without end, ignoring flow control,
 * until the ring is full. Any other Data is accepted and its credit returned.
 */
final class FaultyBinding extends TestBindingType
{
    static final String TYPE = "faulty";

    FaultyBinding()
    {
        super(TYPE, KindConfig.SERVER);
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                return (msgTypeId, buffer, index, length, sender) -> new FaultyStream(sender)::onMessage;
            }

            @Override
            public void detach(BindingConfig binding)
            {
            }
        };
    }

    private static final class FaultyStream
    {
        private final MessageConsumer sender;
        private final MutableDirectBuffer writeBuffer = new UnsafeBuffer(new byte[1024]);
        private final DataFW dataRO = new DataFW();
        private final BeginFW beginRO = new BeginFW();

        private long originId;
        private long routedId;
        private long initialId;
        private long initialSeq;

        FaultyStream(MessageConsumer sender)
        {
            this.sender = sender;
        }

        void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            if (msgTypeId == BeginFW.TYPE_ID)
            {
                final BeginFW begin = beginRO.wrap(buffer, index, index + length);
                originId = begin.originId();
                routedId = begin.routedId();
                initialId = begin.streamId();
                final BeginFW reply = new BeginFW.Builder().wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(initialId & ~1L).sequence(0).acknowledge(0).maximum(0)
                    .build();
                sender.accept(BeginFW.TYPE_ID, reply.buffer(), reply.offset(), reply.sizeof());
                doWindow();
            }
            else if (msgTypeId == DataFW.TYPE_ID)
            {
                final DataFW data = dataRO.wrap(buffer, index, index + length);
                final OctetsFW payload = data.payload();
                final String text = payload.buffer().getStringWithoutLengthUtf8(payload.offset(), payload.sizeof());
                initialSeq += data.reserved();
                if ("boom".equals(text))
                {
                    throw new IllegalStateException("boom on purpose");
                }
                if ("flood".equals(text))
                {
                    flood();
                }
                doWindow();
            }
        }

        private void flood()
        {
            final byte[] chunk = "x".repeat(512).getBytes(StandardCharsets.US_ASCII);
            for (int i = 0; i < 100_000; i++)
            {
                final DataFW data = new DataFW.Builder().wrap(writeBuffer, 0, writeBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(initialId & ~1L).sequence(0).acknowledge(0).maximum(0)
                    .reserved(chunk.length)
                    .payload(chunk)
                    .build();
                sender.accept(DataFW.TYPE_ID, data.buffer(), data.offset(), data.sizeof());
            }
        }

        private void doWindow()
        {
            final WindowFW window = new WindowFW.Builder().wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(originId).routedId(routedId).streamId(initialId)
                .sequence(initialSeq).acknowledge(initialSeq).maximum(65536)
                .padding(0)
                .build();
            sender.accept(WindowFW.TYPE_ID, window.buffer(), window.offset(), window.sizeof());
        }
    }
}
