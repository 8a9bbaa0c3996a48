/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseBroker;
import org.apache.kafka.common.protocol.ByteBufferAccessor;

/** Rewrites every broker of a Metadata response. */
public final class MetadataResponseRewriter extends ResponseRewriter<MetadataResponseData>
{
    public MetadataResponseRewriter()
    {
        super(new MetadataResponseData());
    }

    @Override
    protected MetadataResponseData read(
        ByteBufferAccessor reader,
        short version)
    {
        return new MetadataResponseData(reader, version);
    }

    @Override
    protected void rewrite(
        MetadataResponseData message,
        short version,
        BrokerAddressMapper mapper)
    {
        for (MetadataResponseBroker broker : message.brokers())
        {
            final BrokerAddress address = mapper.map(broker.nodeId(), broker.host(), broker.port());
            broker.setHost(address.host()).setPort(address.port());
        }
    }
}
