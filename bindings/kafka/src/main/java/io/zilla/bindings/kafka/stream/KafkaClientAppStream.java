/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;

import io.zilla.engine.binding.MessageConsumer;
import io.zilla.specs.core.types.stream.AbortFW;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.ResetFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.Flyweight;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;

/**
 * The application side of a kind client stream, whatever its capability: the ids, the per-direction state (initial:
 * the application's frames to us; reply: ours to it), the dispatch of the application's frames, and the frames that
 * end either direction. A capability's stream extends it with its own protocol: it begins with {@link #onAppBegin},
 * overrides the other {@code onApp*} handlers where it does more than the defaults, sends its reply's Begin through
 * {@link #doReplyBegin(long, Flyweight)}, and releases what it holds in {@link #onCleanup}, once both directions are
 * closed.
 */
abstract class KafkaClientAppStream
{
    private final KafkaClientAppFrames io;

    final MessageConsumer app;
    final long originId;
    final long routedId;
    final long initialId;
    final long replyId;

    long initialSeq;
    long initialAck;
    int initialMax;

    long replySeq;
    long replyAck;
    int replyMax;
    int replyPad;

    boolean replyBegun;
    boolean initialClosed;
    boolean replyClosed;

    KafkaClientAppStream(KafkaClientAppFrames io, MessageConsumer app, long originId, long routedId, long initialId)
    {
        this.io = io;
        this.app = app;
        this.originId = originId;
        this.routedId = routedId;
        this.initialId = initialId;
        this.replyId = initialId & ~1L;
    }

    /** Aborts every stream of a factory (its binding is closing), with NETWORK_EXCEPTION in the Reset. */
    static void abortAll(Long2ObjectHashMap<? extends KafkaClientAppStream> streams, long traceId)
    {
        // a copy: each stream leaves the map as it cleans up
        for (KafkaClientAppStream stream : new ArrayList<>(streams.values()))
        {
            stream.doAbortAll(traceId, KafkaClientRequest.NETWORK_EXCEPTION);
        }
    }

    final void onAppMessage(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        final KafkaClientAppFrames io = this.io;
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID -> onAppBegin(io.beginRO.wrap(buffer, index, index + length));
            case DataFW.TYPE_ID -> onAppData(io.dataRO.wrap(buffer, index, index + length));
            case FlushFW.TYPE_ID -> onAppFlush(io.flushRO.wrap(buffer, index, index + length));
            case EndFW.TYPE_ID -> onAppEnd(io.endRO.wrap(buffer, index, index + length));
            case AbortFW.TYPE_ID -> onAppAbort(io.abortRO.wrap(buffer, index, index + length));
            case WindowFW.TYPE_ID -> onAppWindow(io.windowRO.wrap(buffer, index, index + length));
            case ResetFW.TYPE_ID -> onAppReset(io.resetRO.wrap(buffer, index, index + length));
            case SignalFW.TYPE_ID -> onSignal(io.signalRO.wrap(buffer, index, index + length));
            default ->
            {
                // no other frame comes on an app stream
            }
        }
    }

    abstract void onAppBegin(BeginFW begin);

    /** Most capabilities take no Data from the application: ignored. */
    void onAppData(DataFW data)
    {
    }

    /** A Flush from the application means nothing to most capabilities: ignored. */
    void onAppFlush(FlushFW flush)
    {
    }

    /** The application is done: the reply begins if it had not (so that it can end) and ends. */
    void onAppEnd(EndFW end)
    {
        final long traceId = end.traceId();
        initialClosed = true;
        onAppClosing(traceId);
        doReplyBegin(traceId);
        doReplyEnd(traceId);
        cleanup();
    }

    void onAppAbort(AbortFW abort)
    {
        final long traceId = abort.traceId();
        initialClosed = true;
        onAppClosing(traceId);
        doReplyAbort(traceId);
        cleanup();
    }

    /** The reply's credit; a stream that has a reply Data waiting for it overrides this to send it then. */
    void onAppWindow(WindowFW window)
    {
        replyAck = Math.max(replyAck, window.acknowledge());
        replyMax = window.maximum();
        replyPad = window.padding();
    }

    void onAppReset(ResetFW reset)
    {
        final long traceId = reset.traceId();
        replyClosed = true;
        onAppClosing(traceId);
        doReset(traceId, KafkaClientTopic.NONE);
        cleanup();
    }

    /**
     * The application ended, aborted or reset its stream: the capability's own cleanup (a request to cancel, a group to
     * leave, internal streams to abort) before the default End, Abort or Reset. Called by the default handlers once the
     * closed direction is marked (a cleanup may read it), before the reply or the Reset is sent; a stream that overrides
     * {@link #onAppEnd} without calling it is not called on End. None by default.
     */
    void onAppClosing(long traceId)
    {
    }

    /** A timer of this stream (signalled on its reply id): none by default. */
    void onSignal(SignalFW signal)
    {
    }

    /** Begins the reply with this capability's extension, if it has not begun yet. */
    abstract void doReplyBegin(long traceId);

    final void doReplyBegin(long traceId, Flyweight extension)
    {
        doReplyBegin(traceId, extension.buffer(), extension.offset(), extension.sizeof());
    }

    final void doReplyBegin(long traceId, DirectBuffer extension, int offset, int length)
    {
        replyBegun = true;
        io.frames.begin(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, extension, offset, length);
    }

    final void doReplyEnd(long traceId)
    {
        if (replyBegun && !replyClosed)
        {
            io.frames.end(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
        }
        replyClosed = true;
    }

    final void doReplyAbort(long traceId)
    {
        if (replyBegun && !replyClosed)
        {
            io.frames.abort(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId);
        }
        replyClosed = true;
    }

    /** Resets the initial stream, with a KafkaResetEx carrying {@code error} unless it is NONE. */
    final void doReset(long traceId, short error)
    {
        if (!initialClosed)
        {
            io.reset.reset(io.frames, app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, error);
        }
        initialClosed = true;
    }

    void doAbortAll(long traceId, short error)
    {
        doReset(traceId, error);
        doReplyAbort(traceId);
        cleanup();
    }

    final void cleanup()
    {
        if (initialClosed && replyClosed)
        {
            onCleanup();
        }
    }

    /** Both directions are closed: cancel the timers, release what the stream holds, leave the factory's map. */
    abstract void onCleanup();
}
