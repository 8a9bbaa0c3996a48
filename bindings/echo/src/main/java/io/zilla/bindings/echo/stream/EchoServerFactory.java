/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.echo.stream;

import java.util.ArrayList;

import io.zilla.engine.binding.BindingHandler;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.stream.StreamFrames;
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

    public EchoServerFactory(EngineContext context)
    {
        this.writeBuffer = context.writeBuffer();
        this.frames = new StreamFrames(writeBuffer);
    }

    @Override
    public MessageConsumer newStream(int msgTypeId, DirectBuffer buffer, int index, int length, MessageConsumer sender)
    {
        final BeginFW begin = beginRO.wrap(buffer, index, index + length);
        final EchoServer server = new EchoServer(sender, begin.originId(), begin.routedId(), begin.streamId());
        servers.put(server.initialId, server);
        return server::onMessage;
    }

    /** The binding is going away: abort every stream it still serves. */
    public void detach(long bindingId)
    {
        // a copy: aborting a stream removes it from the map
        for (EchoServer server : new ArrayList<>(servers.values()))
        {
            if (server.routedId == bindingId)
            {
                server.doAbortAll(0L);
            }
        }
    }

    private final class EchoServer
    {
        private final MessageConsumer sender;
        private final long originId;
        private final long routedId;
        private final long initialId;
        private final long replyId;

        private long initialSeq;
        private long initialAck;
        private int initialMax;

        private long replySeq;
        private long replyAck;
        private int replyMax;
        private int replyPad;

        private boolean initialClosed;
        private boolean replyClosed;

        EchoServer(MessageConsumer sender, long originId, long routedId, long initialId)
        {
            this.sender = sender;
            this.originId = originId;
            this.routedId = routedId;
            this.initialId = initialId;
            this.replyId = initialId & ~1L;
        }

        void onMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
        {
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
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            doReplyBegin(begin.traceId());
        }

        private void onData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (data.sequence() != initialSeq || initialSeq + reserved > initialAck + initialMax)
            {
                // more than the credit given: the sender broke flow control, so the stream ends
                doAbortAll(traceId);
                return;
            }
            initialSeq += reserved;
            frames.data(sender, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, data.flags(), 0L, reserved,
                data.payload());
            replySeq += reserved;
        }

        private void onFlush(FlushFW flush)
        {
            initialSeq += flush.reserved();
            final FlushFW echo = flushRW.wrap(writeBuffer, 0, writeBuffer.capacity())
                .originId(originId).routedId(routedId).streamId(replyId)
                .sequence(replySeq).acknowledge(replyAck).maximum(replyMax)
                .traceId(flush.traceId())
                .reserved(flush.reserved())
                .build();
            sender.accept(FlushFW.TYPE_ID, echo.buffer(), echo.offset(), echo.sizeof());
            replySeq += flush.reserved();
        }

        private void onEnd(EndFW end)
        {
            initialClosed = true;
            doReplyEnd(end.traceId());
        }

        private void onAbort(AbortFW abort)
        {
            initialClosed = true;
            doReplyAbort(abort.traceId());
        }

        private void onWindow(WindowFW window)
        {
            replyAck = Math.max(replyAck, window.acknowledge());
            replyMax = window.maximum();
            replyPad = window.padding();
            doInitialWindow(window.traceId());
        }

        private void onReset(ResetFW reset)
        {
            replyClosed = true;
            doInitialReset(reset.traceId());
        }

        /** Offers the initial direction what the reply can take: its credit, less what is still in flight. */
        private void doInitialWindow(long traceId)
        {
            if (initialClosed)
            {
                return;
            }
            initialAck = initialSeq - (replySeq - replyAck);
            initialMax = replyMax;
            frames.window(sender, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, 0L, replyPad);
        }

        private void doReplyBegin(long traceId)
        {
            frames.begin(sender, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, null, 0, 0);
        }

        private void doReplyEnd(long traceId)
        {
            if (!replyClosed)
            {
                replyClosed = true;
                frames.end(sender, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
            cleanup();
        }

        private void doReplyAbort(long traceId)
        {
            if (!replyClosed)
            {
                replyClosed = true;
                frames.abort(sender, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
            }
            cleanup();
        }

        private void doInitialReset(long traceId)
        {
            if (!initialClosed)
            {
                initialClosed = true;
                frames.reset(sender, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, null, 0, 0);
            }
            cleanup();
        }

        void doAbortAll(long traceId)
        {
            doInitialReset(traceId);
            doReplyAbort(traceId);
        }

        private void cleanup()
        {
            if (initialClosed && replyClosed)
            {
                servers.remove(initialId);
            }
        }
    }
}
