/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.LongSupplier;

import io.zilla.specs.kafka.codec.BrokerAddress;
import io.zilla.specs.kafka.codec.KafkaApis;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Object2ObjectHashMap;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;

/**
 * One worker's metadata cache of one kafka client binding: topic -> partitions -> leader node id, and node id ->
 * host:port. Topics are asked about when a stream first needs them, when a stream says they are stale
 * ({@link #refresh}: after NOT_LEADER_OR_FOLLOWER, say), and when they are older than the max age. One Metadata
 * request is in flight at a time, on the bootstrap control connection; topics wanted meanwhile go in the next one.
 * A topic is forgotten when its last listener leaves.
 */
final class KafkaClientMetadata implements KafkaClientRequest
{
    static final short UNKNOWN_TOPIC_OR_PARTITION = 3;
    static final short LEADER_NOT_AVAILABLE = 5;

    private final KafkaClientConnectionPool pool;
    private final LongSupplier clock;
    private final Object2ObjectHashMap<String, KafkaClientTopic> topics = new Object2ObjectHashMap<>();
    private final Int2ObjectHashMap<BrokerAddress> nodes;
    private final Set<String> wanted = new LinkedHashSet<>();
    private final List<String> requested = new ArrayList<>();

    private int[] partitionIds = new int[16];
    private int[] leaderIds = new int[16];
    private boolean inflight;

    KafkaClientMetadata(KafkaClientConnectionPool pool, Int2ObjectHashMap<BrokerAddress> nodes, LongSupplier clock)
    {
        this.pool = pool;
        this.nodes = nodes;
        this.clock = clock;
    }

    /** Follows a topic: the listener hears every answer about it from now on; asks about it if it is not known. */
    KafkaClientTopic subscribe(String name, KafkaClientTopic.Listener listener, long traceId)
    {
        KafkaClientTopic topic = topics.get(name);
        if (topic == null)
        {
            topic = new KafkaClientTopic(name);
            topics.put(name, topic);
        }
        topic.addListener(listener);
        if (!topic.known())
        {
            refresh(name, traceId);
        }
        return topic;
    }

    void unsubscribe(KafkaClientTopic topic, KafkaClientTopic.Listener listener)
    {
        topic.removeListener(listener);
        if (!topic.hasListeners())
        {
            topics.remove(topic.name());
            wanted.remove(topic.name());
        }
    }

    /** The topic as known now, or null when nobody follows it. */
    KafkaClientTopic topic(String name)
    {
        return topics.get(name);
    }

    /** The address of a broker node, or null when no Metadata answer named it yet. */
    BrokerAddress node(int nodeId)
    {
        return nodes.get(nodeId);
    }

    /** Asks about the topic again, at once (or with the request in flight, if it is not in it yet). */
    void refresh(String name, long traceId)
    {
        wanted.add(name);
        request(traceId);
    }

    /**
     * Asks about the topic again if its last answer is at least {@code maxAge} ms old, unless that is under way.
     *
     * @return whether an answer is coming: every listener of the topic hears it
     */
    boolean refreshIfOlder(KafkaClientTopic topic, long maxAge, long traceId)
    {
        final String name = topic.name();
        final boolean asking = requested.contains(name) || wanted.contains(name);
        final boolean stale = clock.getAsLong() - topic.updatedAt() >= maxAge;
        if (stale && !asking)
        {
            refresh(name, traceId);
        }
        return stale || asking;
    }

    private void request(long traceId)
    {
        if (!inflight && !wanted.isEmpty())
        {
            requested.addAll(wanted);
            wanted.clear();
            inflight = true;
            final KafkaClientConnection connection = pool.supply(KafkaClientConnectionPool.BOOTSTRAP,
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
        return KafkaApis.METADATA;
    }

    @Override
    public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
    {
        final MetadataRequestData request = new MetadataRequestData()
            .setAllowAutoTopicCreation(false);
        for (String name : requested)
        {
            request.topics().add(new MetadataRequestData.MetadataRequestTopic().setName(name));
        }
        return KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
    }

    @Override
    public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
    {
        MetadataResponseData response;
        try
        {
            response = new MetadataResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
        }
        catch (RuntimeException ex)
        {
            // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
            response = null;
        }
        if (response != null)
        {
            onMetadata(response, traceId);
        }
        return response != null;
    }

    @Override
    public void onFailed(short error, long traceId)
    {
        final List<KafkaClientTopic> failed = new ArrayList<>();
        for (String name : requested)
        {
            final KafkaClientTopic topic = topics.get(name);
            if (topic != null)
            {
                topic.fail(error);
                failed.add(topic);
            }
        }
        requested.clear();
        inflight = false;
        for (KafkaClientTopic topic : failed)
        {
            topic.notifyListeners(traceId);
        }
        request(traceId);
    }

    private void onMetadata(MetadataResponseData response, long traceId)
    {
        for (MetadataResponseData.MetadataResponseBroker broker : response.brokers())
        {
            final BrokerAddress known = nodes.get(broker.nodeId());
            if (known == null || !known.host().equals(broker.host()) || known.port() != broker.port())
            {
                nodes.put(broker.nodeId(), new BrokerAddress(broker.host(), broker.port()));
            }
        }
        final long now = clock.getAsLong();
        final List<KafkaClientTopic> answered = new ArrayList<>();
        for (MetadataResponseData.MetadataResponseTopic answer : response.topics())
        {
            final KafkaClientTopic topic = answer.name() != null ? topics.get(answer.name()) : null;
            if (topic != null && requested.remove(answer.name()))
            {
                if (answer.errorCode() != KafkaClientTopic.NONE)
                {
                    topic.fail(answer.errorCode());
                }
                else if (answer.partitions().isEmpty())
                {
                    // a topic being created can be named before its partitions are
                    topic.fail(LEADER_NOT_AVAILABLE);
                }
                else
                {
                    update(topic, answer, now);
                }
                answered.add(topic);
            }
        }
        for (String name : requested)
        {
            // a broker leaves out no topic it was asked about; if one does, the topic is not there for it
            final KafkaClientTopic topic = topics.get(name);
            if (topic != null)
            {
                topic.fail(UNKNOWN_TOPIC_OR_PARTITION);
                answered.add(topic);
            }
        }
        requested.clear();
        inflight = false;
        for (KafkaClientTopic topic : answered)
        {
            topic.notifyListeners(traceId);
        }
        request(traceId);
    }

    private void update(KafkaClientTopic topic, MetadataResponseData.MetadataResponseTopic answer, long now)
    {
        final int count = answer.partitions().size();
        if (partitionIds.length < count)
        {
            partitionIds = new int[count];
            leaderIds = new int[count];
        }
        int index = 0;
        for (MetadataResponseData.MetadataResponsePartition partition : answer.partitions())
        {
            partitionIds[index] = partition.partitionIndex();
            // -1 when the partition has no leader now (its error is then LEADER_NOT_AVAILABLE)
            leaderIds[index] = partition.leaderId();
            index++;
        }
        topic.update(partitionIds, leaderIds, count, now);
    }
}
