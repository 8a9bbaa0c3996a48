/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBroker;
import org.apache.kafka.common.protocol.ByteBufferAccessor;

/** Rewrites every broker of a DescribeCluster response. */
public final class DescribeClusterResponseRewriter extends ResponseRewriter<DescribeClusterResponseData>
{
    public DescribeClusterResponseRewriter()
    {
        super(new DescribeClusterResponseData());
    }

    @Override
    protected DescribeClusterResponseData read(
        ByteBufferAccessor reader,
        short version)
    {
        return new DescribeClusterResponseData(reader, version);
    }

    @Override
    protected void rewrite(
        DescribeClusterResponseData message,
        short version,
        BrokerAddressMapper mapper)
    {
        for (DescribeClusterBroker broker : message.brokers())
        {
            final BrokerAddress address = mapper.map(broker.brokerId(), broker.host(), broker.port());
            broker.setHost(address.host()).setPort(address.port());
        }
    }
}
