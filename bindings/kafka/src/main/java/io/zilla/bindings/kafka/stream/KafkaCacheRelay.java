/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

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

/**
 * A cache_client stream that the cache does not serve (PRODUCE, META, DESCRIBE, GROUP, the offsets, INIT_PRODUCER_ID,
 * a MERGED stream that only produces), passed to the cache_server's exit as it is: each frame copied with the ids of
 * the other side, so sequences, credit, extensions and errors are the kind client's own (a produce is acknowledged
 * only once Kafka has it). With {@code initialOnly}, only the application's direction goes through (and the credit
 * and Reset that answer it): the produce half of a MERGED stream whose fetch half the cache serves.
 */
final class KafkaCacheRelay
{
    private static final int ORIGIN_ID_OFFSET = 0;
    private static final int ROUTED_ID_OFFSET = 8;
    private static final int STREAM_ID_OFFSET = 16;

    private final EngineContext context;
    private final MessageConsumer app;
    private final long appOriginId;
    private final long appRoutedId;
    private final long appInitialId;
    private final long appReplyId;
    private final long exitRoutedId;
    private final long exitInitialId;
    private final long exitReplyId;
    private final boolean initialOnly;
    private final StreamFrames frames;
    private final DataFW dataRO = new DataFW();
    private final WindowFW windowRO = new WindowFW();
    private MessageConsumer exit;
    private boolean initialClosed;
    private boolean replyClosed;
    private long initialSeq;
    private long initialAck;
    private int initialMax;
    private long replySeq;
    private long replyAck;
    private int replyMax;

    KafkaCacheRelay(EngineContext context, StreamFrames frames, MessageConsumer app, long appOriginId, long appRoutedId,
        long appInitialId, long exitRoutedId, boolean initialOnly)
    {
        this.context = context;
        this.frames = frames;
        this.app = app;
        this.appOriginId = appOriginId;
        this.appRoutedId = appRoutedId;
        this.appInitialId = appInitialId;
        this.appReplyId = appInitialId & ~1L;
        this.exitRoutedId = exitRoutedId;
        this.exitInitialId = context.supplyInitialId(appRoutedId);
        this.exitReplyId = exitInitialId & ~1L;
        this.initialOnly = initialOnly;
    }

    /**
     * Opens the exit's stream with the application's Begin, its extension replaced by {@code extension} when not null.
     *
     * @return false when the exit takes no stream (the application's stream is to be refused)
     */
    boolean open(BeginFW begin, DirectBuffer extension, int extensionOffset, int extensionLength)
    {
        final MutableDirectBuffer buffer = context.writeBuffer();
        final int length;
        if (extension == null)
        {
            length = begin.sizeof();
            buffer.putBytes(0, begin.buffer(), begin.offset(), length);
        }
        else
        {
            final BeginFW copy = new BeginFW.Builder().wrap(buffer, 0, buffer.capacity())
                .originId(appRoutedId).routedId(exitRoutedId).streamId(exitInitialId)
                .sequence(begin.sequence()).acknowledge(begin.acknowledge()).maximum(begin.maximum())
                .traceId(begin.traceId()).authorization(begin.authorization()).affinity(begin.affinity())
                .extension(extension, extensionOffset, extensionLength)
                .build();
            length = copy.sizeof();
        }
        ids(buffer, appRoutedId, exitRoutedId, exitInitialId);
        exit = context.newStream(BeginFW.TYPE_ID, buffer, 0, length, this::onExit);
        return exit != null;
    }

    /** A frame of the application's stream: to the exit's. */
    void onApp(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        switch (msgTypeId)
        {
            case DataFW.TYPE_ID ->
            {
                final DataFW data = dataRO.wrap(buffer, index, index + length);
                initialSeq = data.sequence() + data.reserved();
                forward(exit, msgTypeId, buffer, index, length, exitInitialId);
            }
            case FlushFW.TYPE_ID -> forward(exit, msgTypeId, buffer, index, length, exitInitialId);
            case EndFW.TYPE_ID, AbortFW.TYPE_ID ->
            {
                initialClosed = true;
                forward(exit, msgTypeId, buffer, index, length, exitInitialId);
            }
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = windowRO.wrap(buffer, index, index + length);
                replyAck = window.acknowledge();
                replyMax = window.maximum();
                forward(exit, msgTypeId, buffer, index, length, exitReplyId);
            }
            case ResetFW.TYPE_ID ->
            {
                replyClosed = true;
                forward(exit, msgTypeId, buffer, index, length, exitReplyId);
            }
            default ->
            {
                // the Begin went with open; nothing else comes on an application's stream
            }
        }
    }

    /** The application's stream closed without a frame for this relay (the fetch half ended it): close the exit's. */
    void close(long traceId)
    {
        if (!initialClosed)
        {
            initialClosed = true;
            frames.abort(exit, appRoutedId, exitRoutedId, exitInitialId, initialSeq, initialAck, initialMax, traceId);
        }
        if (!replyClosed)
        {
            replyClosed = true;
            frames.reset(exit, appRoutedId, exitRoutedId, exitReplyId, replySeq, replyAck, replyMax, traceId, null, 0, 0);
        }
    }

    private void onExit(int msgTypeId, DirectBuffer buffer, int index, int length)
    {
        switch (msgTypeId)
        {
            case BeginFW.TYPE_ID, DataFW.TYPE_ID, FlushFW.TYPE_ID ->
            {
                if (msgTypeId == DataFW.TYPE_ID)
                {
                    final DataFW data = dataRO.wrap(buffer, index, index + length);
                    replySeq = data.sequence() + data.reserved();
                }
                // with initialOnly the fetch half owns the application's reply: this half's reply stays here
                if (!initialOnly)
                {
                    forward(app, msgTypeId, buffer, index, length, appReplyId);
                }
            }
            case EndFW.TYPE_ID, AbortFW.TYPE_ID ->
            {
                replyClosed = true;
                if (!initialOnly)
                {
                    forward(app, msgTypeId, buffer, index, length, appReplyId);
                }
            }
            case WindowFW.TYPE_ID ->
            {
                final WindowFW window = windowRO.wrap(buffer, index, index + length);
                initialAck = window.acknowledge();
                initialMax = window.maximum();
                forward(app, msgTypeId, buffer, index, length, appInitialId);
            }
            case ResetFW.TYPE_ID ->
            {
                initialClosed = true;
                forward(app, msgTypeId, buffer, index, length, appInitialId);
            }
            default ->
            {
                // a Signal or Challenge is the exit's own
            }
        }
    }

    private void forward(MessageConsumer target, int msgTypeId, DirectBuffer buffer, int index, int length, long streamId)
    {
        if (target == null)
        {
            return;
        }
        final MutableDirectBuffer copy = context.writeBuffer();
        copy.putBytes(0, buffer, index, length);
        if (target == app)
        {
            ids(copy, appOriginId, appRoutedId, streamId);
        }
        else
        {
            ids(copy, appRoutedId, exitRoutedId, streamId);
        }
        target.accept(msgTypeId, copy, 0, length);
    }

    private static void ids(MutableDirectBuffer buffer, long originId, long routedId, long streamId)
    {
        buffer.putLong(ORIGIN_ID_OFFSET, originId);
        buffer.putLong(ROUTED_ID_OFFSET, routedId);
        buffer.putLong(STREAM_ID_OFFSET, streamId);
    }
}
