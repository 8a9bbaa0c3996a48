/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.echo.stream;

import java.util.ArrayDeque;
import java.util.ArrayList;

import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.engine.binding.stream.StreamSide;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.WindowFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * Echo servers on one worker. Each stream's reply carries back what its initial direction carries, frame for
 * frame: the echo never holds bytes, so it gives the initial direction exactly the credit its reply has.
 */
public final class EchoServerFactory implements BindingHandler
{
    private final BeginFW beginRO = new BeginFW();
    private final DataFW dataRO = new DataFW();
    private final FlushFW flushRO = new FlushFW();
    private final WindowFW windowRO = new WindowFW();
    private final EndFW endRO = new EndFW();
    private final AbortFW abortRO = new AbortFW();
    private final ResetFW resetRO = new ResetFW();

    private final FlushFW.Builder flushRW = new FlushFW.Builder();

    private final MutableDirectBuffer writeBuffer;
    private final StreamFrames frames;
    private final Long2ObjectHashMap<EchoServer> servers = new Long2ObjectHashMap<>();
    // the servers of ended streams, for the next ones: a stream costs no allocation once the worker is warm
    private final ArrayDeque<EchoServer> spares = new ArrayDeque<>();

    public EchoServerFactory(EngineContext context)
    {
        this.writeBuffer = context.writeBuffer();
        this.frames = new StreamFrames(writeBuffer);
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final EchoServer spare = spares.poll();
        final EchoServer server = spare != null ? spare : new EchoServer();
        server.side.set(sender, begin.originId(), begin.routedId(), begin.streamId(), begin.streamId() & ~1L);
        servers.put(server.side.inboundId, server);
        return server.handler;
    }

    /** The binding is going away: abort every stream it still serves. */
    public void detach(long bindingId)
    {
        // a copy: aborting a stream removes it from the map
        for (EchoServer server : new ArrayList<>(servers.values()))
        {
            if (server.side.routedId == bindingId)
            {
                server.doAbortAll(0L);
            }
        }
    }

    private final class EchoServer
    {
        // the stream as the echo sees it: it receives on the initial id and sends on the reply id
        private final StreamSide side = new StreamSide(frames);
        private final MessageConsumer handler = this::onMessage;

        void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
            if (!side.owns(buffer, index))
            {
                // a late frame of the stream this server served before (a Window crossing its End): not ours now
                return;
            }
            switch (msgTypeId)
            {
                case BeginFW.TYPE_ID -> onBegin(beginRO.wrap(buffer, index, index + length));
                case DataFW.TYPE_ID -> onData(dataRO.wrap(buffer, index, index + length));
                case FlushFW.TYPE_ID -> onFlush(flushRO.wrap(buffer, index, index + length));
                case EndFW.TYPE_ID -> onEnd(endRO.wrap(buffer, index, index + length));
                case AbortFW.TYPE_ID -> onAbort(abortRO.wrap(buffer, index, index + length));
                case WindowFW.TYPE_ID -> onWindow(windowRO.wrap(buffer, index, index + length));
                case ResetFW.TYPE_ID -> onReset(resetRO.wrap(buffer, index, index + length));
                default ->
                {
                    // signals and challenges mean nothing to an echo
                }
            }
        }

        private void onBegin(BeginFW begin)
        {
            side.onInBegin(begin);
            side.doOutBegin(begin.traceId(), null, 0, 0);
        }

        private void onData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (!side.onInData(data.sequence(), reserved))
            {
                // more than the credit given: the sender broke flow control, so the stream ends
                doAbortAll(traceId);
                return;
            }
            side.doOutData(traceId, data.flags(), reserved, data.payload());
        }

        private void onFlush(FlushFW flush)
        {
            side.inSeq += flush.reserved();
            final FlushFW echo = flushRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(side.originId).routedId(side.routedId).streamId(side.outboundId)
                .sequence(side.outSeq).acknowledge(side.outAck).maximum(side.outMax)
                .traceId(flush.traceId())
                .reserved(flush.reserved())
                .build();
            side.target.accept(FlushFW.TYPE_ID, echo.buffer(), echo.offset(), echo.sizeof());
            side.outSeq += flush.reserved();
        }

        private void onEnd(EndFW end)
        {
            side.inClosed = true;
            side.doOutEnd(end.traceId());
            cleanup();
        }

        private void onAbort(AbortFW abort)
        {
            side.inClosed = true;
            side.doOutAbort(abort.traceId());
            cleanup();
        }

        private void onWindow(WindowFW window)
        {
            side.onOutWindow(window.acknowledge(), window.maximum(), window.padding(), window.budgetId());
            // the initial direction gets what the reply can take: its credit, less what is still in flight
            side.doInWindow(window.traceId(), side.inSeq - (side.outSeq - side.outAck), side.outMax, side.outPad);
        }

        private void onReset(ResetFW reset)
        {
            side.outClosed = true;
            side.doInReset(reset.traceId());
            cleanup();
        }

        void doAbortAll(long traceId)
        {
            side.doInReset(traceId);
            side.doOutAbort(traceId);
            cleanup();
        }

        private void cleanup()
        {
            if (side.closed() && servers.remove(side.inboundId) == this)
            {
                side.reset();
                spares.push(this);
            }
        }
    }
}
