/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import io.zilla.specs.kafka.codec.ApiVersionRanges;
import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.KafkaApis;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.HeartbeatRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.LeaveGroupRequestData;
import org.apache.kafka.common.message.SyncGroupRequestData;

/**
 * Finds a consumer group's coordinator for one stream (GROUP, OFFSET_FETCH, OFFSET_COMMIT): a FindCoordinator on the
 * bootstrap control connection, whose answer (node id, host and port) goes to the stream's {@link Listener}. One per
 * stream, reused for each search (a coordinator moves, a connection to it fails); a search whose answer is no longer
 * wanted is {@link #cancel}led, so that a late answer is dropped.
 */
final class KafkaClientCoordinator
{
    /** Kafka's error codes that the group apis answer when the group is moving or loading. */
    static final short COORDINATOR_LOAD_IN_PROGRESS = 14;
    static final short COORDINATOR_NOT_AVAILABLE = 15;
    static final short NOT_COORDINATOR = 16;

    /** The OffsetFetch and OffsetCommit versions up to 9: 10 names topics by id. */
    static final short MAX_OFFSET_VERSION = 9;

    /** What a stream hears of its search. */
    interface Listener
    {
        void onCoordinator(int nodeId, BrokerAddress address, long traceId);

        /** No answer, or an error: {@link #isRetriable} tells whether to search again. */
        void onCoordinatorFailed(short error, long traceId);
    }

    private final KafkaClientConnectionPool pool;
    private final Listener listener;
    private final String groupId;

    private int searches;
    private int pending;

    KafkaClientCoordinator(KafkaClientConnectionPool pool, String groupId, Listener listener)
    {
        this.pool = pool;
        this.groupId = groupId;
        this.listener = listener;
    }

    /** The api versions that the GROUP, OFFSET_FETCH and OFFSET_COMMIT capabilities speak. */
    static void supports(ApiVersionRanges ranges)
    {
        final FindCoordinatorRequestData find = new FindCoordinatorRequestData();
        ranges.supports(KafkaApis.FIND_COORDINATOR, find.lowestSupportedVersion(), find.highestSupportedVersion());
        final JoinGroupRequestData join = new JoinGroupRequestData();
        ranges.supports(KafkaApis.JOIN_GROUP, join.lowestSupportedVersion(), join.highestSupportedVersion());
        final SyncGroupRequestData sync = new SyncGroupRequestData();
        ranges.supports(KafkaApis.SYNC_GROUP, sync.lowestSupportedVersion(), sync.highestSupportedVersion());
        final HeartbeatRequestData heartbeat = new HeartbeatRequestData();
        ranges.supports(KafkaApis.HEARTBEAT, heartbeat.lowestSupportedVersion(), heartbeat.highestSupportedVersion());
        final LeaveGroupRequestData leave = new LeaveGroupRequestData();
        ranges.supports(KafkaApis.LEAVE_GROUP, leave.lowestSupportedVersion(), leave.highestSupportedVersion());
        ranges.supports(KafkaApis.OFFSET_FETCH, 1, MAX_OFFSET_VERSION);
        ranges.supports(KafkaApis.OFFSET_COMMIT, 2, MAX_OFFSET_VERSION);
    }

    /** Whether a group api's error, or a failed search, is worth finding the coordinator again for. */
    static boolean isRetriable(short error)
    {
        return switch (error)
        {
            // REQUEST_TIMED_OUT, NETWORK_EXCEPTION, COORDINATOR_LOAD_IN_PROGRESS, COORDINATOR_NOT_AVAILABLE,
            // NOT_COORDINATOR
            case 7, 13, 14, 15, 16 -> true;
            default -> false;
        };
    }

    /** Asks the bootstrap control connection; a search still waiting for its answer is superseded. */
    void find(long traceId)
    {
        pending = ++searches;
        final KafkaClientConnection connection = pool.supply(KafkaClientConnectionPool.BOOTSTRAP,
            KafkaClientConnectionPool.Purpose.CONTROL, traceId);
        if (connection != null)
        {
            connection.send(new Search(pending), traceId);
        }
        else
        {
            pending = 0;
            listener.onCoordinatorFailed(KafkaClientRequest.NETWORK_EXCEPTION, traceId);
        }
    }

    /** The answer of the search under way, if any, is not wanted any more. */
    void cancel()
    {
        pending = 0;
    }

    /** One search: a small object per FindCoordinator (rare), so that an answer to a superseded one is told apart. */
    private final class Search implements KafkaClientRequest
    {
        private final int search;

        Search(int search)
        {
            this.search = search;
        }

        @Override
        public short apiKey()
        {
            return KafkaApis.FIND_COORDINATOR;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            int limit = ENCODE_FAILED;
            if (search == pending)
            {
                final FindCoordinatorRequestData request = new FindCoordinatorRequestData().setKeyType((byte) 0);
                if (version >= 4)
                {
                    request.coordinatorKeys().add(groupId);
                }
                else
                {
                    request.setKey(groupId);
                }
                limit = KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
            }
            return limit;
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            FindCoordinatorResponseData response;
            try
            {
                response = new FindCoordinatorResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            }
            catch (RuntimeException ex)
            {
                // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
                response = null;
            }
            final boolean readable = response != null && (version < 4 || response.coordinators().size() == 1);
            if (readable && search == pending)
            {
                pending = 0;
                final FindCoordinatorResponseData.Coordinator coordinator = version >= 4
                    ? response.coordinators().get(0)
                    : new FindCoordinatorResponseData.Coordinator()
                        .setErrorCode(response.errorCode())
                        .setNodeId(response.nodeId())
                        .setHost(response.host())
                        .setPort(response.port());
                if (coordinator.errorCode() == KafkaClientTopic.NONE)
                {
                    listener.onCoordinator(coordinator.nodeId(), new BrokerAddress(coordinator.host(), coordinator.port()),
                        traceId);
                }
                else
                {
                    listener.onCoordinatorFailed(coordinator.errorCode(), traceId);
                }
            }
            return readable;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            if (search == pending)
            {
                pending = 0;
                listener.onCoordinatorFailed(error, traceId);
            }
        }
    }
}
