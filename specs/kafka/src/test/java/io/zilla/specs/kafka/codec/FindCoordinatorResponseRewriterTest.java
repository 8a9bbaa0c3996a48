/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;

import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;
import org.apache.kafka.common.protocol.types.RawTaggedField;
import org.junit.jupiter.api.Test;

class FindCoordinatorResponseRewriterTest
{
    private static final short FIRST_FLEXIBLE = 3;
    private static final short FIRST_BATCHED = 4;
    private static final short COORDINATOR_NOT_AVAILABLE = 15;

    private final FindCoordinatorResponseRewriter rewriter = new FindCoordinatorResponseRewriter();

    @Test
    void shouldRewriteTheCoordinatorOfEveryVersion()
    {
        assertEquals(0, rewriter.lowestVersion());
        assertEquals(6, rewriter.highestVersion());
        for (short version = rewriter.lowestVersion(); version <= rewriter.highestVersion(); version++)
        {
            final FindCoordinatorResponseData source = response(version, true);
            final FindCoordinatorResponseData expected = Messages.copy(source, version, FindCoordinatorResponseData::new);
            if (version < FIRST_BATCHED)
            {
                final BrokerAddress address = RewriterAssertions.PROXY.map(expected.nodeId(), expected.host(),
                    expected.port());
                expected.setHost(address.host()).setPort(address.port());
            }
            else
            {
                for (Coordinator coordinator : expected.coordinators())
                {
                    if (coordinator.nodeId() >= 0)
                    {
                        final BrokerAddress address = RewriterAssertions.PROXY.map(coordinator.nodeId(), coordinator.host(),
                            coordinator.port());
                        coordinator.setHost(address.host()).setPort(address.port());
                    }
                }
            }
            RewriterAssertions.assertRewrites(rewriter, source, expected, version, FindCoordinatorResponseData::new);
        }
    }

    @Test
    void shouldLeaveACoordinatorNotFoundAsIs()
    {
        for (short version = rewriter.lowestVersion(); version < FIRST_BATCHED; version++)
        {
            final FindCoordinatorResponseData source = response(version, false);
            final FindCoordinatorResponseData expected = Messages.copy(source, version, FindCoordinatorResponseData::new);
            RewriterAssertions.assertRewrites(rewriter, source, expected, version, FindCoordinatorResponseData::new);
        }
    }

    private static FindCoordinatorResponseData response(
        short version,
        boolean found)
    {
        final FindCoordinatorResponseData response = new FindCoordinatorResponseData();
        if (version >= 1)
        {
            response.setThrottleTimeMs(11);
        }
        if (version < FIRST_BATCHED)
        {
            response.setErrorCode(found ? 0 : COORDINATOR_NOT_AVAILABLE)
                .setNodeId(found ? 2 : -1)
                .setHost(found ? "kafka-2.internal" : "")
                .setPort(found ? 9092 : -1);
            if (version >= 1)
            {
                response.setErrorMessage(found ? null : "The coordinator is not available.");
            }
        }
        else
        {
            response.setCoordinators(List.of(
                new Coordinator().setKey("group-a").setNodeId(1).setHost("kafka-1.internal").setPort(9092),
                new Coordinator().setKey("group-b").setNodeId(-1).setHost("").setPort(-1)
                    .setErrorCode(COORDINATOR_NOT_AVAILABLE).setErrorMessage("not yet"),
                new Coordinator().setKey("txn-c").setNodeId(3).setHost("10.0.0.3").setPort(19093)));
        }
        if (version >= FIRST_FLEXIBLE)
        {
            response.unknownTaggedFields().add(new RawTaggedField(8, new byte[] {8}));
        }
        return response;
    }
}
