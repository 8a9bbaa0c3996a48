/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBroker;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBrokerCollection;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

class DescribeClusterResponseRewriterTest
{
    private final DescribeClusterResponseRewriter rewriter = new DescribeClusterResponseRewriter();

    @Test
    void shouldRewriteEveryBrokerOfEveryVersion()
    {
        assertEquals(0, rewriter.lowestVersion());
        assertEquals(2, rewriter.highestVersion());
        for (short version = rewriter.lowestVersion(); version <= rewriter.highestVersion(); version++)
        {
            final DescribeClusterResponseData source = response(version);
            final DescribeClusterResponseData expected = Messages.copy(source, version, DescribeClusterResponseData::new);
            for (DescribeClusterBroker broker : expected.brokers())
            {
                final BrokerAddress address = RewriterAssertions.PROXY.map(broker.brokerId(), broker.host(), broker.port());
                broker.setHost(address.host()).setPort(address.port());
            }
            RewriterAssertions.assertRewrites(rewriter, source, expected, version, DescribeClusterResponseData::new);
        }
    }

    private static DescribeClusterResponseData response(
        short version)
    {
        final DescribeClusterBrokerCollection brokers = new DescribeClusterBrokerCollection();
        for (int brokerId = 0; brokerId < 4; brokerId++)
        {
            final DescribeClusterBroker broker = new DescribeClusterBroker()
                .setBrokerId(brokerId)
                .setHost("kafka-" + brokerId + ".svc.cluster.local")
                .setPort(19092)
                .setRack(brokerId == 0 ? null : "zone-" + brokerId);
            if (version >= 2)
            {
                broker.setIsFenced(brokerId == 3);
            }
            broker.unknownTaggedFields().add(new RawTaggedField(3, new byte[] {(byte) brokerId}));
            brokers.add(broker);
        }
        final DescribeClusterResponseData response = new DescribeClusterResponseData()
            .setThrottleTimeMs(3)
            .setErrorCode((short) 0)
            .setErrorMessage(null)
            .setClusterId("cluster-a")
            .setControllerId(1)
            .setBrokers(brokers)
            .setClusterAuthorizedOperations(0x1ff);
        if (version >= 1)
        {
            response.setEndpointType((byte) 1);
        }
        response.unknownTaggedFields().add(new RawTaggedField(42, new byte[] {4, 2}));
        return response;
    }
}
