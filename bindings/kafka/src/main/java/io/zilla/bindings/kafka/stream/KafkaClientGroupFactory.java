/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.List;
import java.util.function.Function;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.binding.EngineContext;
import io.zilla.engine.binding.MessageConsumer;
import io.zilla.engine.binding.signal.Signaler;
import io.zilla.engine.binding.stream.StreamFrames;
import io.zilla.specs.core.types.stream.BeginFW;
import io.zilla.specs.core.types.stream.DataFW;
import io.zilla.specs.core.types.stream.EndFW;
import io.zilla.specs.core.types.stream.FlushFW;
import io.zilla.specs.core.types.stream.SignalFW;
import io.zilla.specs.core.types.stream.WindowFW;
import io.zilla.specs.flyweight.OctetsFW;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.KafkaApis;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaFlushExFW;
import io.zilla.specs.kafka.types.stream.KafkaGroupAssignmentFW;
import io.zilla.specs.kafka.types.stream.KafkaGroupBeginExFW;
import org.agrona.DirectBuffer;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.JoinGroupResponseData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Readable;

/**
 * GROUP streams: an application is one member of a consumer group, with a protocol of its own (the type, such as
 * "consumer", one protocol name and its metadata). The binding finds the coordinator (FindCoordinator on the control
 * connection) and talks to it on a connection of the stream's own, since JoinGroup waits at the broker until the group
 * rebalanced and a broker answers a connection's requests one at a time. After each join the reply carries a Flush
 * {@code KafkaGroupFlushEx} (generation, leader, member id, and to the leader every member with its metadata); the
 * application's next initial Data is then the leader's assignments ({@code KafkaGroupAssignment} repeated) or empty for
 * a follower; SyncGroup follows, and the reply Data carries this member's assignment. Heartbeats go every third of the
 * session timeout while the member is in the group; a rebalance rejoins (a new Flush, a new Data), a lost coordinator
 * is found again, and any other error resets the stream with a {@code KafkaResetEx}. The application's End leaves the
 * group, then the reply ends; its Reset or Abort leaves as well, best effort.
 */
final class KafkaClientGroupFactory
{
    static final int SIGNAL_FIND = 1;
    static final int SIGNAL_HEARTBEAT = 2;

    static final long RETRY_BACKOFF_MIN = 100L;
    static final long RETRY_BACKOFF_MAX = 2_000L;

    /** How many times a member whose id the coordinator forgot joins again as a new member before the stream resets. */
    static final int UNKNOWN_MEMBER_RETRIES = 1;

    static final short UNKNOWN_MEMBER_ID = 25;
    static final short ILLEGAL_GENERATION = 22;
    static final short REBALANCE_IN_PROGRESS = 27;
    static final short MEMBER_ID_REQUIRED = 79;

    private static final int FLAG_FIN = 0x01;
    private static final int FLAG_INIT = 0x02;
    private static final String LEAVE_REASON = "the zilla group stream ended";

    private final KafkaClientAppFrames io;
    private final KafkaBeginExFW.Builder beginExRW = new KafkaBeginExFW.Builder();
    private final KafkaFlushExFW.Builder flushExRW = new KafkaFlushExFW.Builder();
    private final FlushFW.Builder flushRW = new FlushFW.Builder();
    private final KafkaGroupAssignmentFW assignmentRO = new KafkaGroupAssignmentFW();
    private final MutableDirectBuffer extensionBuffer;
    private final MutableDirectBuffer frameBuffer;

    private final StreamFrames frames;
    private final KafkaClientConnectionPool pool;
    private final Signaler signaler;
    private final int maxAssignments;
    private final Long2ObjectHashMap<GroupStream> streams = new Long2ObjectHashMap<>();

    KafkaClientGroupFactory(EngineContext context, StreamFrames frames, KafkaClientConnectionPool pool)
    {
        this.frames = frames;
        this.io = new KafkaClientAppFrames(frames);
        this.pool = pool;
        this.signaler = context.signaler();
        this.extensionBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity() >> 1]);
        this.frameBuffer = new UnsafeBuffer(new byte[context.writeBuffer().capacity()]);
        // the leader's assignments go into one SyncGroup, which must fit the connection's encode buffer
        this.maxAssignments = pool != null ? pool.encodeBuffer().capacity() >> 1 : 0;
    }

    MessageConsumer newStream(BeginFW begin, KafkaGroupBeginExFW beginEx, MessageConsumer sender)
    {
        MessageConsumer receiver = null;
        final String groupId = beginEx.groupId().asString();
        final String protocolType = beginEx.protocolType().asString();
        final String protocol = beginEx.protocol().asString();
        if (pool != null && groupId != null && !groupId.isEmpty() && protocolType != null && protocol != null
            && beginEx.timeout() > 0)
        {
            final OctetsFW metadata = beginEx.metadata();
            final byte[] metadataBytes = new byte[metadata != null ? metadata.sizeof() : 0];
            if (metadata != null)
            {
                metadata.buffer().getBytes(metadata.offset(), metadataBytes);
            }
            final GroupStream stream = new GroupStream(sender, begin.originId(), begin.routedId(), begin.streamId(),
                groupId, protocolType, protocol, beginEx.timeout(), beginEx.instanceId().asString(), metadataBytes);
            streams.put(stream.initialId, stream);
            receiver = stream::onAppMessage;
        }
        return receiver;
    }

    void close(long traceId)
    {
        KafkaClientAppStream.abortAll(streams, traceId);
    }

    private static <T> T read(DirectBuffer buffer, int offset, int limit, Function<Readable, T> reader)
    {
        T response;
        try
        {
            response = reader.apply(KafkaControlMessages.readable(buffer, offset, limit));
        }
        catch (RuntimeException ex)
        {
            // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
            response = null;
        }
        return response;
    }

    private enum State
    {
        /** Looking for the coordinator, or waiting to look again. */
        FINDING,
        /** JoinGroup sent. */
        JOINING,
        /** Joined: the Flush went to the application, whose initial Data (the assignments) is awaited. */
        JOINED,
        /** SyncGroup sent. */
        SYNCING,
        /** In the group with an assignment: heartbeats only. */
        STABLE,
        /** Left, or leaving: nothing more is sent but the LeaveGroup. */
        CLOSED
    }

    private final class GroupStream extends KafkaClientAppStream implements KafkaClientCoordinator.Listener
    {
        private final String groupId;
        private final String protocolType;
        private final String protocol;
        private final int timeout;
        private final String instanceId;
        private final byte[] metadata;
        private final KafkaClientCoordinator coordinator;
        private final JoinGroup join = new JoinGroup();
        private final SyncGroup sync = new SyncGroup();
        private final Heartbeat heartbeat = new Heartbeat();

        private State state = State.FINDING;
        private KafkaClientConnection connection;
        private String memberId = "";
        private int generationId = -1;
        private int unknownMemberRetries;
        private long backoff = RETRY_BACKOFF_MIN;
        private long findTimerId = Signaler.NO_CANCEL_ID;
        private long heartbeatTimerId = Signaler.NO_CANCEL_ID;

        private ExpandableArrayBuffer assignments;
        private int assignmentsLength;
        private boolean assignmentsComplete;
        private byte[] assignment;

        private int coordinatorNodeId;
        private BrokerAddress coordinatorAddress;

        GroupStream(MessageConsumer app, long originId, long routedId, long initialId, String groupId,
            String protocolType, String protocol, int timeout, String instanceId, byte[] metadata)
        {
            super(io, app, originId, routedId, initialId);
            this.groupId = groupId;
            this.protocolType = protocolType;
            this.protocol = protocol;
            this.timeout = timeout;
            this.instanceId = instanceId;
            this.metadata = metadata;
            this.coordinator = new KafkaClientCoordinator(pool, groupId, this);
        }

        // a Flush from the application means nothing to a group: the default ignores it
        @Override
        void onAppBegin(BeginFW begin)
        {
            final long traceId = begin.traceId();
            initialSeq = begin.sequence();
            initialAck = begin.acknowledge();
            initialMax = maxAssignments;
            doWindow(traceId);
            coordinator.find(traceId);
        }

        // the assignments of the current join, possibly in fragments (INIT first, FIN last)
        @Override
        void onAppData(DataFW data)
        {
            final long traceId = data.traceId();
            final int reserved = data.reserved();
            if (data.sequence() != initialSeq || initialSeq + reserved > initialAck + initialMax)
            {
                // the application broke flow control
                doAbortAll(traceId, KafkaClientRequest.CORRUPT_MESSAGE);
                return;
            }
            initialSeq += reserved;
            final int flags = data.flags();
            final OctetsFW payload = data.payload();
            if ((flags & FLAG_INIT) != 0)
            {
                assignmentsLength = 0;
                assignmentsComplete = false;
            }
            if (payload != null && payload.sizeof() > 0)
            {
                if (assignments == null)
                {
                    assignments = new ExpandableArrayBuffer(payload.sizeof());
                }
                assignments.putBytes(assignmentsLength, payload.buffer(), payload.offset(), payload.sizeof());
                assignmentsLength += payload.sizeof();
            }
            if ((flags & FLAG_FIN) != 0)
            {
                assignmentsComplete = true;
                if (state == State.JOINED)
                {
                    doSync(traceId);
                }
                // otherwise the assignments of a generation that a rebalance has already ended: dropped
            }
            initialAck = initialSeq;
            doWindow(traceId);
        }

        @Override
        void onAppEnd(EndFW end)
        {
            initialClosed = true;
            doLeave(end.traceId());
        }

        // an Abort or a Reset leaves the group too, without waiting for the answer: the default then aborts or resets
        @Override
        void onAppClosing(long traceId)
        {
            doLeave(traceId);
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
            final long traceId = signal.traceId();
            if (signal.signalId() == SIGNAL_FIND)
            {
                findTimerId = Signaler.NO_CANCEL_ID;
                if (state == State.FINDING)
                {
                    coordinator.find(traceId);
                }
            }
            else if (signal.signalId() == SIGNAL_HEARTBEAT)
            {
                heartbeatTimerId = Signaler.NO_CANCEL_ID;
                // no heartbeat behind a JoinGroup or SyncGroup, which wait at the broker: they keep the member alive
                if ((state == State.JOINED || state == State.STABLE) && connection != null)
                {
                    heartbeat.sendOn(connection, traceId);
                }
            }
        }

        @Override
        public void onCoordinator(int nodeId, BrokerAddress address, long traceId)
        {
            if (state == State.FINDING)
            {
                coordinatorNodeId = nodeId;
                coordinatorAddress = address;
                connection = pool.open(nodeId, address, KafkaClientConnectionPool.Purpose.COORDINATOR, traceId);
                if (connection != null)
                {
                    doJoin(traceId);
                }
                else
                {
                    scheduleFind(traceId);
                }
            }
        }

        @Override
        public void onCoordinatorFailed(short error, long traceId)
        {
            if (state == State.FINDING)
            {
                if (KafkaClientCoordinator.isRetriable(error))
                {
                    scheduleFind(traceId);
                }
                else
                {
                    onFatal(error, traceId);
                }
            }
        }

        private void doJoin(long traceId)
        {
            state = State.JOINING;
            cancelHeartbeat();
            join.sendOn(connection, traceId);
        }

        private void onJoined(JoinGroupResponseData response, long traceId)
        {
            final short error = response.errorCode();
            if (error == KafkaClientTopic.NONE)
            {
                backoff = RETRY_BACKOFF_MIN;
                memberId = response.memberId();
                generationId = response.generationId();
                state = State.JOINED;
                assignment = null;
                doReplyBegin(traceId);
                doReplyFlush(response, traceId);
                scheduleHeartbeat(traceId);
            }
            else if (error == MEMBER_ID_REQUIRED)
            {
                // KIP-394: the coordinator names the member, which joins again under that id
                memberId = response.memberId();
                doJoin(traceId);
            }
            else if (error == REBALANCE_IN_PROGRESS)
            {
                doJoin(traceId);
            }
            else
            {
                onGroupError(error, traceId);
            }
        }

        private void doSync(long traceId)
        {
            state = State.SYNCING;
            sync.sendOn(connection, traceId);
        }

        private void onSynced(SyncGroupResponseData response, long traceId)
        {
            final short error = response.errorCode();
            if (error == KafkaClientTopic.NONE)
            {
                unknownMemberRetries = 0;
                state = State.STABLE;
                assignment = response.assignment();
                doReplyData(traceId);
            }
            else
            {
                onGroupError(error, traceId);
            }
        }

        private void onHeartbeat(short error, long traceId)
        {
            if (error == KafkaClientTopic.NONE)
            {
                scheduleHeartbeat(traceId);
            }
            else
            {
                onGroupError(error, traceId);
            }
        }

        // an error of JoinGroup, SyncGroup or Heartbeat: rejoin, find the coordinator again, or give up
        private void onGroupError(short error, long traceId)
        {
            if (error == REBALANCE_IN_PROGRESS || error == ILLEGAL_GENERATION)
            {
                doJoin(traceId);
            }
            else if (error == UNKNOWN_MEMBER_ID && unknownMemberRetries < UNKNOWN_MEMBER_RETRIES)
            {
                // the coordinator forgot this member (its session expired): it joins again as a new one
                unknownMemberRetries++;
                memberId = "";
                generationId = -1;
                doJoin(traceId);
            }
            else if (KafkaClientCoordinator.isRetriable(error))
            {
                pool.event(traceId, "kafka.group.coordinator.lost", "group " + groupId + ": coordinator lost (error "
                    + error + "), finding it again");
                closeConnection(traceId);
                scheduleFind(traceId);
            }
            else
            {
                onFatal(error, traceId);
            }
        }

        private void onFatal(short error, long traceId)
        {
            pool.event(traceId, "kafka.group.failed", "group " + groupId + " failed with error " + error);
            doLeave(traceId);
            doAbortAll(traceId, error);
        }

        private void scheduleFind(long traceId)
        {
            state = State.FINDING;
            cancelHeartbeat();
            if (findTimerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(findTimerId);
            }
            findTimerId = signaler.signalAt(System.currentTimeMillis() + backoff, originId, routedId, replyId, traceId,
                SIGNAL_FIND, 0);
            backoff = Math.min(backoff << 1, RETRY_BACKOFF_MAX);
        }

        private void scheduleHeartbeat(long traceId)
        {
            cancelHeartbeat();
            heartbeatTimerId = signaler.signalAt(System.currentTimeMillis() + Math.max(timeout / 3, 1), originId, routedId,
                replyId, traceId, SIGNAL_HEARTBEAT, 0);
        }

        private void cancelHeartbeat()
        {
            if (heartbeatTimerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(heartbeatTimerId);
                heartbeatTimerId = Signaler.NO_CANCEL_ID;
            }
        }

        /*
         * Leaves the group once, best effort: the LeaveGroup goes on the coordinator's shared control connection, not
         * behind a JoinGroup that may wait on the member's own connection, which closes now. The stream's End waits
         * for the answer; a Reset, an Abort or an error does not.
         */
        private void doLeave(long traceId)
        {
            if (state != State.CLOSED)
            {
                state = State.CLOSED;
                coordinator.cancel();
                cancelHeartbeat();
                if (findTimerId != Signaler.NO_CANCEL_ID)
                {
                    signaler.cancel(findTimerId);
                    findTimerId = Signaler.NO_CANCEL_ID;
                }
                closeConnection(traceId);
                final KafkaClientConnection control = !memberId.isEmpty() && coordinatorAddress != null
                    ? pool.supply(coordinatorNodeId, coordinatorAddress, KafkaClientConnectionPool.Purpose.CONTROL, traceId)
                    : null;
                if (control != null)
                {
                    control.send(new LeaveGroup(), traceId);
                }
                else
                {
                    onLeft(traceId);
                }
            }
        }

        private void onLeft(long traceId)
        {
            if (initialClosed && !replyClosed)
            {
                doReplyBegin(traceId);
                doReplyEnd(traceId);
            }
            cleanup();
        }

        private void closeConnection(long traceId)
        {
            final KafkaClientConnection closing = connection;
            connection = null;
            if (closing != null)
            {
                closing.close(traceId);
            }
        }

        private void doWindow(long traceId)
        {
            if (!initialClosed)
            {
                frames.window(app, originId, routedId, initialId, initialSeq, initialAck, initialMax, traceId, 0L, 0);
            }
        }

        @Override
        void doReplyBegin(long traceId)
        {
            if (!replyBegun)
            {
                final KafkaBeginExFW beginEx = beginExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .group(g -> g.groupId(groupId)
                        .protocolType(protocolType)
                        .protocol(protocol)
                        .timeout(timeout)
                        .instanceId(instanceId)
                        .metadata(metadata))
                    .build();
                doReplyBegin(traceId, beginEx);
            }
        }

        private void doReplyFlush(JoinGroupResponseData response, long traceId)
        {
            if (!replyClosed)
            {
                final boolean leader = response.leader().equals(response.memberId());
                final List<JoinGroupResponseData.JoinGroupResponseMember> members = leader ? response.members() : List.of();
                final KafkaFlushExFW flushEx = flushExRW.wrap(extensionBuffer, 0, extensionBuffer.capacity())
                    .typeId(KafkaBinding.TYPE_ID)
                    .group(g ->
                    {
                        g.generationId(response.generationId())
                            .leaderId(response.leader())
                            .memberId(response.memberId());
                        for (JoinGroupResponseData.JoinGroupResponseMember member : members)
                        {
                            g.membersItem(m -> m.memberId(member.memberId()).metadata(member.metadata()));
                        }
                    })
                    .build();
                final FlushFW flush = flushRW.wrap(frameBuffer, 0, frameBuffer.capacity())
                    .originId(originId).routedId(routedId).streamId(replyId)
                    .sequence(replySeq).acknowledge(replyAck).maximum(replyMax)
                    .traceId(traceId)
                    .extension(flushEx.buffer(), flushEx.offset(), flushEx.sizeof())
                    .build();
                app.accept(FlushFW.TYPE_ID, flush.buffer(), flush.offset(), flush.sizeof());
            }
        }

        // this member's assignment, once the application gave credit for it (all at once)
        private void doReplyData(long traceId)
        {
            final byte[] pending = assignment;
            final int reserved = pending != null ? pending.length + replyPad : 0;
            if (pending != null && replyBegun && !replyClosed && replyMax > 0
                && replyMax - (int) (replySeq - replyAck) >= reserved)
            {
                assignment = null;
                frames.data(app, originId, routedId, replyId, replySeq, replyAck, replyMax, traceId, FLAG_INIT | FLAG_FIN,
                    0L, reserved, new UnsafeBuffer(pending), 0, pending.length, null, 0, 0);
                replySeq += reserved;
            }
        }

        @Override
        void doAbortAll(long traceId, short error)
        {
            if (state != State.CLOSED)
            {
                state = State.CLOSED;
                coordinator.cancel();
                closeConnection(traceId);
            }
            super.doAbortAll(traceId, error);
        }

        @Override
        void onCleanup()
        {
            cancelHeartbeat();
            if (findTimerId != Signaler.NO_CANCEL_ID)
            {
                signaler.cancel(findTimerId);
                findTimerId = Signaler.NO_CANCEL_ID;
            }
            streams.remove(initialId);
        }

        /**
         * A request of this member on its coordinator connection: its answer counts only while that connection is
         * still the member's and this request is the one it waits for (a rejoin supersedes a heartbeat).
         */
        private abstract class MemberRequest implements KafkaClientRequest
        {
            private KafkaClientConnection sentOn;
            private boolean awaited;

            final void sendOn(KafkaClientConnection connection, long traceId)
            {
                sentOn = connection;
                awaited = true;
                connection.send(this, traceId);
            }

            final boolean isCurrent()
            {
                return awaited && sentOn == connection && connection != null;
            }

            @Override
            public final int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
            {
                return isCurrent() ? KafkaControlMessages.write(message(version), version, buffer, offset, maxLimit)
                    : ENCODE_FAILED;
            }

            @Override
            public final boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
            {
                final boolean current = isCurrent();
                awaited = false;
                return onResponse(version, buffer, offset, limit, traceId, current);
            }

            @Override
            public final void onFailed(short error, long traceId)
            {
                if (isCurrent())
                {
                    awaited = false;
                    onGroupError(error == UNSUPPORTED_VERSION ? error : NETWORK_EXCEPTION, traceId);
                }
                awaited = false;
            }

            abstract ApiMessage message(short version);

            /** @return false when the body cannot be read */
            abstract boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId,
                boolean current);
        }

        private final class JoinGroup extends MemberRequest
        {
            @Override
            public short apiKey()
            {
                return KafkaApis.JOIN_GROUP;
            }

            @Override
            ApiMessage message(short version)
            {
                final JoinGroupRequestData request = new JoinGroupRequestData()
                    .setGroupId(groupId)
                    .setSessionTimeoutMs(timeout)
                    .setRebalanceTimeoutMs(timeout)
                    .setMemberId(memberId)
                    .setGroupInstanceId(instanceId)
                    .setProtocolType(protocolType);
                request.protocols().add(new JoinGroupRequestData.JoinGroupRequestProtocol()
                    .setName(protocol)
                    .setMetadata(metadata));
                return request;
            }

            @Override
            boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId, boolean current)
            {
                final JoinGroupResponseData response = read(buffer, offset, limit, r -> new JoinGroupResponseData(r, version));
                if (response != null && current)
                {
                    onJoined(response, traceId);
                }
                return response != null;
            }
        }

        private final class SyncGroup extends MemberRequest
        {
            @Override
            public short apiKey()
            {
                return KafkaApis.SYNC_GROUP;
            }

            @Override
            ApiMessage message(short version)
            {
                final SyncGroupRequestData request = new SyncGroupRequestData()
                    .setGroupId(groupId)
                    .setGenerationId(generationId)
                    .setMemberId(memberId)
                    .setGroupInstanceId(instanceId)
                    .setProtocolType(protocolType)
                    .setProtocolName(protocol);
                int progress = 0;
                while (assignmentsComplete && progress < assignmentsLength)
                {
                    final KafkaGroupAssignmentFW entry = assignmentRO.tryWrap(assignments, progress, assignmentsLength);
                    if (entry == null)
                    {
                        // what is left is not an assignment: the leader's Data is cut short, the rest is dropped
                        break;
                    }
                    final OctetsFW bytes = entry.assignment();
                    final byte[] copy = new byte[bytes != null ? bytes.sizeof() : 0];
                    if (bytes != null)
                    {
                        bytes.buffer().getBytes(bytes.offset(), copy);
                    }
                    request.assignments().add(new SyncGroupRequestData.SyncGroupRequestAssignment()
                        .setMemberId(entry.memberId().asString())
                        .setAssignment(copy));
                    progress = entry.limit();
                }
                return request;
            }

            @Override
            boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId, boolean current)
            {
                final SyncGroupResponseData response = read(buffer, offset, limit, r -> new SyncGroupResponseData(r, version));
                if (response != null && current)
                {
                    onSynced(response, traceId);
                }
                return response != null;
            }
        }

        private final class Heartbeat extends MemberRequest
        {
            @Override
            public short apiKey()
            {
                return KafkaApis.HEARTBEAT;
            }

            @Override
            ApiMessage message(short version)
            {
                return new HeartbeatRequestData()
                    .setGroupId(groupId)
                    .setGenerationId(generationId)
                    .setMemberId(memberId)
                    .setGroupInstanceId(instanceId);
            }

            @Override
            boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId, boolean current)
            {
                final HeartbeatResponseData response = read(buffer, offset, limit, r -> new HeartbeatResponseData(r, version));
                // a heartbeat's answer after a rejoin began is stale
                if (response != null && current && (state == State.JOINED || state == State.STABLE))
                {
                    onHeartbeat(response.errorCode(), traceId);
                }
                return response != null;
            }
        }

        /** The member's last request: the stream may be gone by the time it is answered. */
        private final class LeaveGroup implements KafkaClientRequest
        {
            @Override
            public short apiKey()
            {
                return KafkaApis.LEAVE_GROUP;
            }

            @Override
            public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
            {
                final LeaveGroupRequestData request = new LeaveGroupRequestData().setGroupId(groupId);
                if (version >= 3)
                {
                    request.members().add(new LeaveGroupRequestData.MemberIdentity()
                        .setMemberId(memberId)
                        .setGroupInstanceId(instanceId)
                        .setReason(LEAVE_REASON));
                }
                else
                {
                    request.setMemberId(memberId);
                }
                return KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
            }

            @Override
            public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
            {
                // whether the coordinator knew the member or not, it is out of the group now
                onLeft(traceId);
                return true;
            }

            @Override
            public void onFailed(short error, long traceId)
            {
                onLeft(traceId);
            }
        }
    }
}
