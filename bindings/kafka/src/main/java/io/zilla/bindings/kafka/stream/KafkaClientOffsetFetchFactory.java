/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.List;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFetchBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.OffsetFetchRequestData;
import org.apache.kafka.common.message.OffsetFetchResponseData;

/**
 * OFFSET_FETCH streams: an application reads a group's committed offsets for a topic's partitions (none listed: every
 * partition of the topic with a committed offset). The binding finds the group's coordinator, sends one OffsetFetch on
 * the coordinator's shared control connection, then the reply begins, one reply Data carries the offsets
 * ({@code KafkaOffsetFetchDataEx}: partition, committed offset or -1, metadata) and the reply ends. A moving or loading
 * coordinator is found again and asked again, with a backoff; any other error resets the stream with a
 * {@code KafkaResetEx}.
 */
final class KafkaClientOffsetFetchFactory
{
    static final int SIGNAL_RETRY = 1;
    static final long RETRY_BACKOFF_MIN = 100L;
    static final long RETRY_BACKOFF_MAX = 2_000L;
    static final int MAX_RETRIES = 20;

    /** The offsets of a transaction not yet committed or aborted: asked again, as KafkaConsumer does. */
    static final short UNSTABLE_OFFSET_COMMIT = 88;

    private static final DirectBuffer EMPTY = new UnsafeBuffer(new byte[0]);

    private final KafkaClientAppFrames io;
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final KafkaDataExFW.Builder dataExRW = new KafkaDataExFW.Builder();
    private final MutableDirectBuffer extensionBuffer;

    private final StreamFrames frames;
    private final KafkaClientConnectionPool pool;
    private final Signaler signaler;
    private final Long2ObjectHashMap<OffsetFetchStream> streams = new Long2ObjectHashMap<>();

    KafkaClientOffsetFetchFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool)
    {
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.pool = pool;
        this.signaler = context.signaler();
        this.extensionBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity() >> 1]);
    }

    MessageConsumer newStream(BeginFW begin, KafkaOffsetFetchBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        final String groupId = beginEx.groupId().asString();
        final String topic = beginEx.topic().asString();
        if (pool != null && groupId != null && !groupId.isEmpty() && topic != null && !topic.isEmpty())
        {
            final IntArrayList partitions = new IntArrayList();
            beginEx.partitions().forEach(p -> partitions.addInt(p.partitionId()));
            final OffsetFetchStream stream = new OffsetFetchStream(sender, begin.originId(), begin.routedId(),
                begin.streamId(), groupId, topic, partitions);
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        return receiver;
    }

    void close(long traceId)
    {
        KafkaClientAppStream.abortAll(streams, traceId);
    }

    private final class OffsetFetchStream extends KafkaClientAppStream implements KafkaClientCoordinator.Listener,
        KafkaClientRequest
    {
        private final String groupId;
        private final String topic;
        private final IntArrayList partitions;
        private final KafkaClientCoordinator coordinator;

        private int retries;
        private long backoff = RETRY_BACKOFF_MIN;
        private long timerId = Signaler.NO_CANCEL_ID;
        private OffsetFetchResponseData.OffsetFetchResponseTopics answer;

        private boolean answered;

        OffsetFetchStream(MessageConsumer app, long originId, long routedId, long initialId, String groupId, String topic,
            IntArrayList partitions)
        {
            super(io, app, originId, routedId, initialId);
            this.groupId = groupId;
            this.topic = topic;
            this.partitions = partitions;
            this.coordinator = new KafkaClientCoordinator(pool, groupId, this);
        }

        // an OFFSET_FETCH stream carries no Data or Flush from the application: the defaults ignore them
        @Override
        void onAppBegin(BeginFW begin)
        {
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            frames.window(app, originId, routedId, initialId, initialSeq, initialAck, 0, begin.traceId(), 0L, 0);
            coordinator.find(begin.traceId());
        }

        // an End, an Abort or a Reset: a search still under way is answered to nobody
        @Override
        void onAppClosing(long traceId)
        {
            coordinator.cancel();
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
            if (!replyClosed && signal.signalId() == SIGNAL_RETRY)
            {
                coordinator.find(signal.traceId());
            }
        }

        @Override
        public void onCoordinator(int nodeId, BrokerAddress address, long traceId)
        {
            final KafkaClientConnection connection = replyClosed ? null
                : pool.supply(nodeId, address, KafkaClientConnectionPool.Purpose.CONTROL, traceId);
            if (connection != null)
            {
                connection.send(this, traceId);
            }
            else if (!replyClosed)
            {
                onFailed(NETWORK_EXCEPTION, traceId);
            }
        }

        @Override
        public void onCoordinatorFailed(short error, long traceId)
        {
            onFailed(error, traceId);
        }

        @Override
        public short apiKey()
        {
            return KafkaApis.OFFSET_FETCH;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            final List<Integer> indexes = List.copyOf(partitions);
            final OffsetFetchRequestData request = new OffsetFetchRequestData();
            if (version >= 8)
            {
                final OffsetFetchRequestData.OffsetFetchRequestGroup group = new OffsetFetchRequestData.OffsetFetchRequestGroup()
                    .setGroupId(groupId);
                // no partitions named: every topic of the group, of which this stream keeps its topic's
                group.setTopics(indexes.isEmpty() ? null : List.of(new OffsetFetchRequestData.OffsetFetchRequestTopics()
                    .setName(topic)
                    .setPartitionIndexes(indexes)));
                request.setGroups(List.of(group));
            }
            else
            {
                request.setGroupId(groupId);
                request.setTopics(indexes.isEmpty() ? null : List.of(new OffsetFetchRequestData.OffsetFetchRequestTopic()
                    .setName(topic)
                    .setPartitionIndexes(indexes)));
            }
            return replyClosed ? ENCODE_FAILED : KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            OffsetFetchResponseData response;
            try
            {
                response = new OffsetFetchResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            }
            catch (RuntimeException ex)
            {
                // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
                response = null;
            }
            final boolean readable = response != null && (version < 8 || response.groups().size() == 1);
            if (readable && !replyClosed)
            {
                onOffsets(version >= 8 ? response.groups().get(0) : group(response), traceId);
            }
            return readable;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            if (!replyClosed)
            {
                if ((KafkaClientCoordinator.isRetriable(error) || error == UNSTABLE_OFFSET_COMMIT) && retries < MAX_RETRIES)
                {
                    retries++;
                    timerId = signaler.signalAt(System.currentTimeMillis() + backoff, originId, routedId, replyId, traceId,
                        SIGNAL_RETRY, 0);
                    backoff = Math.min(backoff << 1, RETRY_BACKOFF_MAX);
                }
                else
                {
                    pool.event(traceId, "kafka.offset.fetch.failed", "OffsetFetch of group " + groupId + " failed with error "
                        + error);
                    doAbortAll(traceId, error);
                }
            }
        }

        // the group's error first, then the first partition's error, if any
        private void onOffsets(OffsetFetchResponseData.OffsetFetchResponseGroup group, long traceId)
        {
            short error = group.errorCode();
            OffsetFetchResponseData.OffsetFetchResponseTopics found = new OffsetFetchResponseData.OffsetFetchResponseTopics()
                .setName(topic);
            for (OffsetFetchResponseData.OffsetFetchResponseTopics candidate : group.topics())
            {
                if (topic.equals(candidate.name()))
                {
                    found = candidate;
                }
            }
            for (OffsetFetchResponseData.OffsetFetchResponsePartitions partition : found.partitions())
            {
                error = error == KafkaClientTopic.NONE ? partition.errorCode() : error;
            }
            if (error == KafkaClientTopic.NONE)
            {
                answer = found;
                doReplyBegin(traceId);
                doReplyData(traceId);
            }
            else
            {
                onFailed(error, traceId);
            }
        }

        @Override
        void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
                final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .offsetFetch(o ->
                    {
                        o.groupId(groupId).topic(topic);
                        for (int i = 0; i < partitions.size(); i++)
                        {
                            final int partitionId = partitions.getInt(i);
                            o.partitionsItem(p -> p.partitionId(partitionId));
                        }
                    })
                    .build();
                doReplyBegin(traceId, beginEx);
            }
        }

        // the offsets once, when the application gave credit, then the reply ends
        private void doReplyData(long traceId)
        {
            final int reserved = replyPad;
            if (answer != null && !answered && replyBegun && !replyClosed && replyMax > 0
                && replyMax - (int) (replySeq - replyAck) >= reserved)
            {
                answered = true;
                final OffsetFetchResponseData.OffsetFetchResponseTopics offsets = answer;
                final KafkaDataExFW dataEx = dataExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .offsetFetch(f ->
                    {
                        for (OffsetFetchResponseData.OffsetFetchResponsePartitions partition : offsets.partitions())
                        {
                            f.offsetsItem(o -> o.partitionId(partition.partitionIndex())
                                .partitionOffset(partition.committedOffset())
                                .metadata(partition.metadata()));
                        }
                    })
                    .build();
                frames.data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, 0x03, 0L, reserved,
                    EMPTY, 0, 0, dataEx.buffer(), dataEx.offset(), dataEx.sizeof());
                replySeq += reserved;
                doReplyEnd(traceId);
                cleanup();
            }
        }

        @Override
        void doAbortAll(long traceId, short error)
        {
            coordinator.cancel();
            super.doAbortAll(traceId, error);
        }

        @Override
        void onCleanup()
        {
            if (timerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(timerId);
                timerId = Signaler.NO_CANCEL_ID;
            }
            streams.remove(initialId);
        }

        // a response before v8 as the one group of a later one
        private OffsetFetchResponseData.OffsetFetchResponseGroup group(OffsetFetchResponseData response)
        {
            final OffsetFetchResponseData.OffsetFetchResponseGroup group = new OffsetFetchResponseData.OffsetFetchResponseGroup()
                .setGroupId(groupId)
                .setErrorCode(response.errorCode());
            for (OffsetFetchResponseData.OffsetFetchResponseTopic topic : response.topics())
            {
                final OffsetFetchResponseData.OffsetFetchResponseTopics converted =
                    new OffsetFetchResponseData.OffsetFetchResponseTopics().setName(topic.name());
                for (OffsetFetchResponseData.OffsetFetchResponsePartition partition : topic.partitions())
                {
                    converted.partitions().add(new OffsetFetchResponseData.OffsetFetchResponsePartitions()
                        .setPartitionIndex(partition.partitionIndex())
                        .setCommittedOffset(partition.committedOffset())
                        .setMetadata(partition.metadata())
                        .setErrorCode(partition.errorCode()));
                }
                group.topics().add(converted);
            }
            return group;
        }
    }
}
