/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;


import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaMetaBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * META streams: an application follows a topic's partitions and leaders. The reply begins once the topic is known,
 * then a reply Data (empty payload, {@code KafkaDataEx meta}) lists the partitions and their leaders, and another
 * comes each time they change, as credit allows. LEADER_NOT_AVAILABLE and the other retriable errors are retried with
 * a backoff; UNKNOWN_TOPIC_OR_PARTITION too, a few times (the topic may be being created), then the stream is reset
 * with a {@code KafkaResetEx} carrying the error, as for every other error. The application's End ends it.
 */
final class KafkaClientMetaFactory
{
    static final int SIGNAL_RETRY = 1;
    static final int SIGNAL_REFRESH = 2;

    static final long RETRY_BACKOFF_MIN = 100L;
    static final long RETRY_BACKOFF_MAX = 5_000L;

    /** How many times an unknown topic is asked about again before the stream is reset: about 0.7 s in all. */
    static final int UNKNOWN_TOPIC_RETRIES = 3;

    private static final DirectBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private final KafkaClientAppFrames io;
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final KafkaDataExFW.Builder dataExRW = new KafkaDataExFW.Builder();
    private final MutableDirectBuffer extensionBuffer;

    private final StreamFrames frames;
    private final KafkaClientMetadata metadata;
    private final Signaler signaler;
    private final long maxAge;
    private final Long2ObjectHashMap<MetaStream> streams = new Long2ObjectHashMap<>();

    KafkaClientMetaFactory(EngineContext context, StreamFrames frames, KafkaClientMetadata metadata, long maxAge)
    {
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.metadata = metadata;
        this.signaler = context.signaler();
        this.maxAge = maxAge;
        this.extensionBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity() >> 2]);
    }

    MessageConsumer newStream(BeginFW begin, KafkaMetaBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        final String topic = beginEx.topic().asString();
        if (metadata != null && topic != null && !topic.isEmpty())
        {
            final MetaStream stream = new MetaStream(sender, begin.originId(), begin.routedId(), begin.streamId(), topic);
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        return receiver;
    }

    void close(long traceId)
    {
        KafkaClientAppStream.abortAll(streams, traceId);
    }

    static boolean isRetriable(short error)
    {
        return switch (error)
        {
            // LEADER_NOT_AVAILABLE, NOT_LEADER_OR_FOLLOWER, REQUEST_TIMED_OUT, NETWORK_EXCEPTION, KAFKA_STORAGE_ERROR
            case 5, 6, 7, 13, 56 -> true;
            default -> false;
        };
    }

    private final class MetaStream extends KafkaClientAppStream implements KafkaClientTopic.Listener
    {
        private final String name;

        private KafkaClientTopic topic;
        private int sentGeneration;
        private int unknownRetries;
        private long backoff = RETRY_BACKOFF_MIN;
        private long timerId = Signaler.NO_CANCEL_ID;

        MetaStream(MessageConsumer app, long originId, long routedId, long initialId, String name)
        {
            super(io, app, originId, routedId, initialId);
            this.name = name;
        }

        // a META stream carries no Data or Flush from the application: the defaults ignore them
        @Override
        void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            // no Data is expected from the application: the window only acknowledges the Begin
            frames.window(app, originId, routedId, initialId, initialSeq, initialAck, 0, traceId, 0L, 0);
            topic = metadata.subscribe(name, this, traceId);
            if (topic.known() && topic.error() == KafkaClientTopic.NONE)
            {
                onTopicMetadata(topic, traceId);
            }
            else if (topic.known())
            {
                metadata.refresh(name, traceId);
            }
        }

        @Override
        void onAppWindow(WindowFW window)
        {
            super.onAppWindow(window);
            doReplyData(window.traceId());
        }

        @Override
        void onSignal(SignalFW signal)
        {
            timerId = Signaler.NO_CANCEL_ID;
            if (!replyClosed && topic != null)
            {
                if (signal.signalId() == SIGNAL_RETRY)
                {
                    metadata.refresh(name, signal.traceId());
                }
                else if (!metadata.refreshIfOlder(topic, maxAge, signal.traceId()) && timerId == Signaler.NO_CANCEL_ID)
                {
                    // another stream of the topic refreshed it meanwhile: wait for its next due time
                    scheduleRefresh(signal.traceId());
                }
            }
        }

        @Override
        public void onTopicMetadata(KafkaClientTopic topic, long traceId)
        {
            final short error = topic.error();
            if (error == KafkaClientTopic.NONE)
            {
                unknownRetries = 0;
                backoff = RETRY_BACKOFF_MIN;
                doReplyBegin(traceId);
                doReplyData(traceId);
                if (topic.leaderless())
                {
                    scheduleRetry(traceId);
                }
                else
                {
                    scheduleRefresh(traceId);
                }
            }
            else if (error == KafkaClientMetadata.UNKNOWN_TOPIC_OR_PARTITION && unknownRetries < UNKNOWN_TOPIC_RETRIES)
            {
                unknownRetries++;
                scheduleRetry(traceId);
            }
            else if (isRetriable(error))
            {
                scheduleRetry(traceId);
            }
            else
            {
                doAbortAll(traceId, error);
            }
        }

        private void scheduleRetry(long traceId)
        {
            schedule(traceId, backoff, SIGNAL_RETRY);
            backoff = Math.min(backoff << 1, RETRY_BACKOFF_MAX);
        }

        private void scheduleRefresh(long traceId)
        {
            final long due = topic.updatedAt() + maxAge - System.currentTimeMillis();
            schedule(traceId, Math.max(due, RETRY_BACKOFF_MIN), SIGNAL_REFRESH);
        }

        private void schedule(long traceId, long delay, int signalId)
        {
            cancelTimer();
            timerId = signaler.signalAt(System.currentTimeMillis() + delay, originId, routedId, replyId, traceId, signalId, 0);
        }

        private void cancelTimer()
        {
            if (timerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(timerId);
                timerId = Signaler.NO_CANCEL_ID;
            }
        }

        @Override
        void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
                final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .meta(m -> m.topic(name))
                    .build();
                doReplyBegin(traceId, beginEx);
            }
        }

        // the partitions and leaders, when they changed since the last Data and the application gave credit
        private void doReplyData(long traceId)
        {
            final int reserved = replyPad;
            if (replyBegun && !replyClosed && topic != null && topic.known() && topic.generation() != sentGeneration
                && replyMax > 0 && replyMax - (int) (replySeq - replyAck) >= reserved)
            {
                final KafkaClientTopic known = topic;
                final KafkaDataExFW dataEx = dataExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .meta(m ->
                    {
                        for (int i = 0; i < known.partitions(); i++)
                        {
                            final int partitionId = known.partitionId(i);
                            final int leaderId = known.leaderId(i);
                            m.partitionsItem(p -> p.partitionId(partitionId).leaderId(leaderId));
                        }
                    })
                    .build();
                frames.data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, 0x03, 0L, reserved,
                    EMPTY, 0, 0, dataEx.buffer(), dataEx.offset(), dataEx.sizeof());
                replySeq += reserved;
                sentGeneration = known.generation();
            }
        }

        @Override
        void onCleanup()
        {
            cancelTimer();
            if (topic != null)
            {
                metadata.unsubscribe(topic, this);
                topic = null;
            }
            streams.remove(initialId);
        }
    }
}
