/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.stream;

import java.net.URL;
import java.nio.charset.StandardCharsets;

import io.zilla.bindings.sse.SseBinding;
import io.zilla.engine.binding.BindingContext;
import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.test.TestBindingType;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.sse.types.stream.SseDataExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A mapping that allocates nothing per event, for the allocation test: each sse stream gets events, one after
 * another for as long as its credit lasts, each {@link #PAYLOAD} (two lines) with an id and a type. The test binding
 * of the engine test-jar cannot play this part: it allocates per message itself.
 */
final class SseTickerBinding extends TestBindingType
{
    static final String PAYLOAD = "{\"price\":42,\r\n\"symbol\":\"ZLA\"}";
    static final String EVENT = "id: 7\nevent: tick\ndata: {\"price\":42,\ndata: \"symbol\":\"ZLA\"}\n\n";

    SseTickerBinding()
    {
        super("ticker", KindConfig.SERVER);
    }

    @Override
    public URL schema()
    {
        return SseTickerBinding.class.getResource("ticker.schema.json");
    }

    @Override
    public BindingContext supply(EngineContext context)
    {
        final StreamFrames frames = new StreamFrames(context.writeBuffer());
        final BeginFW beginRO = new BeginFW();
        final WindowFW windowRO = new WindowFW();
        final DirectBuffer payload = new UnsafeBuffer(PAYLOAD.getBytes(StandardCharsets.UTF_8));
        final MutableDirectBuffer extension = new UnsafeBuffer(new byte[64]);
        final int extensionLength = new SseDataExFW.Builder().wrap(extension, 0, extension.capacity())
            .typeId(SseBinding.TYPE_ID).timestamp(0L).id("7").type("tick").build().sizeof();
        return new BindingContext()
        {
            @Override
            public BindingHandler attach(BindingConfig binding)
            {
                return (msgTypeId, buffer, index, length, sender) ->
                {
                    final BeginFW begin = beginRO.wrap(buffer, index, index + length);
                    final StreamSide side = new StreamSide(frames);
                    side.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
                    return (type, frame, offset, size) ->
                    {
                        if (!side.owns(frame, offset))
                        {
                            return;
                        }
                        if (type == BeginFW.TYPE_ID)
                        {
                            side.onInBegin(beginRO.wrap(frame, offset, offset + size));
                            side.doOutBegin(0L, null, 0, 0);
                        }
                        else if (type == WindowFW.TYPE_ID)
                        {
                            final WindowFW window = windowRO.wrap(frame, offset, offset + size);
                            side.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
                            while (side.outCredit() >= payload.capacity())
                            {
                                final int reserved = payload.capacity() + side.outPad;
                                frames.data(side.target, side.originId, side.routedId, side.outboundId, side.outSeq,
                                    side.outAck, side.outMax, 0L, 0x03, 0L, reserved, payload, 0, payload.capacity(),
                                    extension, 0, extensionLength);
                                side.outSeq += reserved;
                            }
                        }
                        else
                        {
                            // an Abort or Reset: the client went; the stream's state is garbage once the engine forgets it
                            side.outClosed = true;
                            side.inClosed = true;
                        }
                    };
                };
            }

            @Override
            public void detach(BindingConfig binding)
            {
            }
        };
    }
}
