/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetCommitBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetCommitDataExFW;
import io.zilla.specs.kafka.types.stream.KafkaOffsetFW;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.IntArrayList;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongArrayList;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitResponseData;

/**
 * OFFSET_COMMIT streams: an application commits a topic's offsets as a group member (member id, instance id and
 * generation of its GROUP stream; generation -1 and no member for a group that no member manages). Each initial Data
 * carries one partition's offset, metadata and leader epoch ({@code KafkaOffsetCommitDataEx}); the binding commits it
 * with an OffsetCommit at the group's coordinator (its shared control connection) and only then gives the Data's
 * credit back with a Window, so that a Window tells the application what is committed. Commits that arrive while one
 * OffsetCommit is under way go together in the next one. A moving or loading coordinator is found again and the
 * commit sent again; any other error (ILLEGAL_GENERATION, UNKNOWN_MEMBER_ID, REBALANCE_IN_PROGRESS...) resets the
 * stream with a {@code KafkaResetEx}. The application's End ends the reply once every commit is answered.
 */
final class KafkaClientOffsetCommitFactory
{
    static final int SIGNAL_RETRY = 1;
    static final long RETRY_BACKOFF_MIN = 100L;
    static final long RETRY_BACKOFF_MAX = 2_000L;
    static final int MAX_RETRIES = 20;

    /**
     * The credit a commit takes: its Data has no payload, so the Window's padding is what each one reserves, and the
     * window holds {@link #MAX_UNCOMMITTED} of them.
     */
    static final int COMMIT_PADDING = 64;
    static final int MAX_UNCOMMITTED = 64;

    private final KafkaClientAppFrames io;
    private final KafkaDataExFW dataExRO = new KafkaDataExFW();
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final MutableDirectBuffer extensionBuffer = new UnsafeBuffer(new byte[1024]);

    private final StreamFrames frames;
    private final KafkaClientConnectionPool pool;
    private final Signaler signaler;
    private final Long2ObjectHashMap<OffsetCommitStream> streams = new Long2ObjectHashMap<>();

    KafkaClientOffsetCommitFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool)
    {
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.pool = pool;
        this.signaler = context.signaler();
    }

    MessageConsumer newStream(BeginFW begin, KafkaOffsetCommitBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        final String groupId = beginEx.groupId().asString();
        final String topic = beginEx.topic().asString();
        if (pool != null && groupId != null && !groupId.isEmpty() && topic != null && !topic.isEmpty())
        {
            final String memberId = beginEx.memberId().asString();
            final OffsetCommitStream stream = new OffsetCommitStream(sender, begin.originId(), begin.routedId(),
                begin.streamId(), groupId, memberId != null ? memberId : "", beginEx.instanceId().asString(),
                beginEx.generationId(), topic);
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        return receiver;
    }

    void close(long traceId)
    {
        KafkaClientAppStream.abortAll(streams, traceId);
    }

    private final class OffsetCommitStream extends KafkaClientAppStream implements KafkaClientCoordinator.Listener,
        KafkaClientRequest
    {
        private final String groupId;
        private final String memberId;
        private final String instanceId;
        private final int generationId;
        private final String topic;
        private final KafkaClientCoordinator coordinator;

        // the commits not answered yet, in order; the first inflight of them are in the OffsetCommit under way
        private final IntArrayList partitions = new IntArrayList();
        private final LongArrayList offsets = new LongArrayList();
        private final IntArrayList leaderEpochs = new IntArrayList();
        private final IntArrayList reserved = new IntArrayList();
        private final List<String> metadata = new ArrayList<>();
        private int inflight;

        private int retries;
        private long backoff = RETRY_BACKOFF_MIN;
        private long timerId = Signaler.NO_CANCEL_ID;
        private int coordinatorNodeId;
        private BrokerAddress coordinatorAddress;
        private boolean finding;

        OffsetCommitStream(MessageConsumer app, long originId, long routedId, long initialId, String groupId,
            String memberId, String instanceId, int generationId, String topic)
        {
            super(io, app, originId, routedId, initialId);
            this.groupId = groupId;
            this.memberId = memberId;
            this.instanceId = instanceId;
            this.generationId = generationId;
            this.topic = topic;
            this.coordinator = new KafkaClientCoordinator(pool, groupId, this);
        }

        @Override
        void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            initialMax = COMMIT_PADDING * MAX_UNCOMMITTED;
            doWindow(traceId);
            doReplyBegin(traceId);
            doFind(traceId);
        }

        @Override
        void onAppData(DataFW data)
        {
            final long traceId = data.traceId();
            final OctetsFW extension = data.extension();
            final KafkaDataExFW dataEx = extension != null && extension.sizeof() > 0
                ? dataExRO.tryWrap(extension.buffer(), extension.offset(), extension.limit())
                : null;
            if (data.sequence() != initialSeq || initialSeq + data.reserved() > initialAck + initialMax)
            {
                // the application broke flow control
                doAbortAll(traceId, KafkaClientRequest.CORRUPT_MESSAGE);
            }
            else if (dataEx == null || dataEx.typeId() != KafkaBinding.TYPE_ID || dataEx.offsetCommit() == null)
            {
                pool.event(traceId, "kafka.offset.commit.malformed", "group " + groupId + ": a Data without a "
                    + "KafkaOffsetCommitDataEx, stream reset");
                doAbortAll(traceId, KafkaClientRequest.CORRUPT_MESSAGE);
            }
            else
            {
                initialSeq += data.reserved();
                final KafkaOffsetCommitDataExFW commit = dataEx.offsetCommit();
                final KafkaOffsetFW progress = commit.progress();
                partitions.addInt(progress.partitionId());
                offsets.addLong(progress.partitionOffset());
                leaderEpochs.addInt(commit.leaderEpoch());
                metadata.add(progress.metadata().asString());
                reserved.addInt(data.reserved());
                doCommit(traceId);
            }
        }

        // no Reset after the End: an error of a commit still under way aborts the reply
        @Override
        void onAppEnd(EndFW end)
        {
            initialClosed = true;
            doReplyEndIfCommitted(end.traceId());
        }

        // the reply carries no Data: its Window means nothing here
        @Override
        void onAppWindow(WindowFW window)
        {
        }

        @Override
        void onSignal(SignalFW signal)
        {
            timerId = Signaler.NO_CANCEL_ID;
            if (!replyClosed && signal.signalId() == SIGNAL_RETRY)
            {
                doFind(signal.traceId());
            }
        }

        private void doFind(long traceId)
        {
            finding = true;
            coordinatorAddress = null;
            coordinator.find(traceId);
        }

        @Override
        public void onCoordinator(int nodeId, BrokerAddress address, long traceId)
        {
            finding = false;
            coordinatorNodeId = nodeId;
            coordinatorAddress = address;
            doCommit(traceId);
        }

        @Override
        public void onCoordinatorFailed(short error, long traceId)
        {
            finding = false;
            onFailed(error, traceId);
        }

        // sends what is pending in one OffsetCommit, unless one is under way or the coordinator is not known
        private void doCommit(long traceId)
        {
            if (inflight == 0 && !partitions.isEmpty() && coordinatorAddress != null && !replyClosed)
            {
                inflight = partitions.size();
                final KafkaClientConnection connection = pool.supply(coordinatorNodeId, coordinatorAddress,
                    KafkaClientConnectionPool.Purpose.CONTROL, traceId);
                if (connection != null)
                {
                    connection.send(this, traceId);
                }
                else
                {
                    onFailed(NETWORK_EXCEPTION, traceId);
                }
            }
        }

        @Override
        public short apiKey()
        {
            return KafkaApis.OFFSET_COMMIT;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            final OffsetCommitRequestData.OffsetCommitRequestTopic commits =
                new OffsetCommitRequestData.OffsetCommitRequestTopic().setName(topic);
            for (int i = 0; i < inflight; i++)
            {
                commits.partitions().add(new OffsetCommitRequestData.OffsetCommitRequestPartition()
                    .setPartitionIndex(partitions.getInt(i))
                    .setCommittedOffset(offsets.getLong(i))
                    .setCommittedLeaderEpoch(leaderEpochs.getInt(i))
                    .setCommittedMetadata(metadata.get(i)));
            }
            final OffsetCommitRequestData request = new OffsetCommitRequestData()
                .setGroupId(groupId)
                .setGenerationIdOrMemberEpoch(generationId)
                .setMemberId(memberId)
                .setGroupInstanceId(instanceId)
                .setTopics(List.of(commits));
            return replyClosed ? ENCODE_FAILED : KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            OffsetCommitResponseData response;
            try
            {
                response = new OffsetCommitResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            }
            catch (RuntimeException ex)
            {
                // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
                response = null;
            }
            if (response != null && !replyClosed)
            {
                short error = KafkaClientTopic.NONE;
                for (OffsetCommitResponseData.OffsetCommitResponseTopic answer : response.topics())
                {
                    for (OffsetCommitResponseData.OffsetCommitResponsePartition partition : answer.partitions())
                    {
                        error = error == KafkaClientTopic.NONE ? partition.errorCode() : error;
                    }
                }
                if (error == KafkaClientTopic.NONE)
                {
                    onCommitted(traceId);
                }
                else
                {
                    onFailed(error, traceId);
                }
            }
            return response != null;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            inflight = 0;
            if (!replyClosed && !finding)
            {
                if (KafkaClientCoordinator.isRetriable(error) && retries < MAX_RETRIES)
                {
                    // the coordinator moved, is loading, or its connection failed: find it again, then commit again
                    retries++;
                    coordinatorAddress = null;
                    timerId = signaler.signalAt(System.currentTimeMillis() + backoff, originId, routedId, replyId, traceId,
                        SIGNAL_RETRY, 0);
                    backoff = Math.min(backoff << 1, RETRY_BACKOFF_MAX);
                }
                else
                {
                    pool.event(traceId, "kafka.offset.commit.failed", "OffsetCommit of group " + groupId
                        + " failed with error " + error);
                    doAbortAll(traceId, error);
                }
            }
        }

        // the commits of the OffsetCommit answered: their credit goes back, and what waited goes next
        private void onCommitted(long traceId)
        {
            retries = 0;
            backoff = RETRY_BACKOFF_MIN;
            int committed = 0;
            for (int i = 0; i < inflight; i++)
            {
                committed += reserved.getInt(i);
            }
            removeFirst(inflight);
            inflight = 0;
            initialAck += committed;
            doWindow(traceId);
            doCommit(traceId);
            doReplyEndIfCommitted(traceId);
        }

        private void removeFirst(int count)
        {
            final int size = partitions.size();
            for (int i = count; i < size; i++)
            {
                partitions.setInt(i - count, partitions.getInt(i));
                offsets.setLong(i - count, offsets.getLong(i));
                leaderEpochs.setInt(i - count, leaderEpochs.getInt(i));
                reserved.setInt(i - count, reserved.getInt(i));
            }
            for (int i = 0; i < count; i++)
            {
                partitions.removeAt(partitions.size() - 1);
                offsets.removeAt(offsets.size() - 1);
                leaderEpochs.removeAt(leaderEpochs.size() - 1);
                reserved.removeAt(reserved.size() - 1);
            }
            metadata.subList(0, count).clear();
        }

        private void doReplyEndIfCommitted(long traceId)
        {
            if (initialClosed && partitions.isEmpty() && !replyClosed)
            {
                doReplyEnd(traceId);
                cleanup();
            }
        }

        private void doWindow(long traceId)
        {
            if (!initialClosed)
            {
                frames.window(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, 0L,
                    COMMIT_PADDING);
            }
        }

        @Override
        void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
                final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .offsetCommit(o -> o.groupId(groupId)
                        .memberId(memberId)
                        .instanceId(instanceId)
                        .generationId(generationId)
                        .topic(topic))
                    .build();
                doReplyBegin(traceId, beginEx);
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
            coordinator.cancel();
            if (timerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(timerId);
                timerId = Signaler.NO_CANCEL_ID;
            }
            streams.remove(initialId);
        }
    }
}
