/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;
import org.apache.kafka.common.protocol.ByteBufferAccessor;

/**
 * Rewrites the coordinator of a FindCoordinator response: the single node id, host and port of v0 to v3, or
 * each entry of v4's coordinators (one per key). A coordinator that was not found (node id -1, empty host,
 * port -1, with an error code) is no broker, so it is left as is.
 */
public final class FindCoordinatorResponseRewriter extends ResponseRewriter<FindCoordinatorResponseData>
{
    private static final short FIRST_BATCHED_VERSION = 4;

    public FindCoordinatorResponseRewriter()
    {
        super(new FindCoordinatorResponseData());
    }

    @Override
    protected FindCoordinatorResponseData read(
        ByteBufferAccessor reader,
        short version)
    {
        return new FindCoordinatorResponseData(reader, version);
    }

    @Override
    protected void rewrite(
        FindCoordinatorResponseData message,
        short version,
        BrokerAddressMapper mapper)
    {
        if (version < FIRST_BATCHED_VERSION)
        {
            if (message.nodeId() >= 0)
            {
                final BrokerAddress address = mapper.map(message.nodeId(), message.host(), message.port());
                message.setHost(address.host()).setPort(address.port());
            }
        }
        else
        {
            for (Coordinator coordinator : message.coordinators())
            {
                if (coordinator.nodeId() >= 0)
                {
                    final BrokerAddress address = mapper.map(coordinator.nodeId(), coordinator.host(), coordinator.port());
                    coordinator.setHost(address.host()).setPort(address.port());
                }
            }
        }
    }
}
