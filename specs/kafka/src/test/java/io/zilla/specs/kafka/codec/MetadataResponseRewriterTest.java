/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBrokerCollection;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponsePartition;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopicCollection;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

class MetadataResponseRewriterTest
{
    private static final short FIRST_FLEXIBLE = 9;

    private final MetadataResponseRewriter rewriter = new MetadataResponseRewriter();

    @Test
    void shouldRewriteEveryBrokerOfEveryVersion()
    {
        assertEquals(0, rewriter.lowestVersion());
        assertEquals(13, rewriter.highestVersion());
        for (short version = rewriter.lowestVersion(); version <= rewriter.highestVersion(); version++)
        {
            final MetadataResponseData source = response(version);
            final MetadataResponseData expected = Messages.copy(source, version, MetadataResponseData::new);
            for (MetadataResponseBroker broker : expected.brokers())
            {
                final BrokerAddress address = RewriterAssertions.PROXY.map(broker.nodeId(), broker.host(), broker.port());
                broker.setHost(address.host()).setPort(address.port());
            }
            RewriterAssertions.assertRewrites(rewriter, source, expected, version, MetadataResponseData::new);
        }
    }

    private static MetadataResponseData response(
        short version)
    {
        final MetadataResponseBrokerCollection brokers = new MetadataResponseBrokerCollection();
        for (int nodeId = 1; nodeId <= 3; nodeId++)
        {
            final MetadataResponseBroker broker = new MetadataResponseBroker()
                .setNodeId(nodeId)
                .setHost("b" + nodeId + ".kafka.internal")
                .setPort(9090 + nodeId);
            if (version >= 1)
            {
                broker.setRack(nodeId == 2 ? null : "rack-" + nodeId);
            }
            if (version >= FIRST_FLEXIBLE)
            {
                broker.unknownTaggedFields().add(new RawTaggedField(5, new byte[] {(byte) nodeId}));
            }
            brokers.add(broker);
        }

        final MetadataResponseTopicCollection topics = new MetadataResponseTopicCollection();
        for (int t = 0; t < 2; t++)
        {
            final MetadataResponseTopic topic = new MetadataResponseTopic()
                .setErrorCode((short) (t == 0 ? 0 : 3))
                .setName("topic-" + t);
            if (version >= 1)
            {
                topic.setIsInternal(t == 1);
            }
            if (version >= 8)
            {
                topic.setTopicAuthorizedOperations(0x0ff8);
            }
            if (version >= 10)
            {
                topic.setTopicId(new Uuid(17L + t, 42L));
            }
            for (int p = 0; p < 3; p++)
            {
                final MetadataResponsePartition partition = new MetadataResponsePartition()
                    .setErrorCode((short) 0)
                    .setPartitionIndex(p)
                    .setLeaderId(1 + p)
                    .setReplicaNodes(List.of(1, 2, 3))
                    .setIsrNodes(List.of(1 + p, 3));
                if (version >= 7)
                {
                    partition.setLeaderEpoch(10 + p);
                }
                if (version >= 5)
                {
                    partition.setOfflineReplicas(List.of(2));
                }
                topic.partitions().add(partition);
            }
            topics.add(topic);
        }

        final MetadataResponseData response = new MetadataResponseData()
            .setBrokers(brokers)
            .setTopics(topics);
        if (version >= 1)
        {
            response.setControllerId(2);
        }
        if (version >= 2)
        {
            response.setClusterId("cluster-" + version);
        }
        if (version >= 3)
        {
            response.setThrottleTimeMs(7);
        }
        if (version >= 8 && version <= 10)
        {
            response.setClusterAuthorizedOperations(0x0f);
        }
        if (version >= 13)
        {
            response.setErrorCode((short) 0);
        }
        if (version >= FIRST_FLEXIBLE)
        {
            response.unknownTaggedFields().add(new RawTaggedField(99, new byte[] {1, 2, 3, 4}));
        }
        return response;
    }
}
