/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaData;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The broker stopped and started again on the same ports, with the kafka client's connections to it: a META stream
 * opened after the restart gets its answer over a new connection, and one that stayed open through the outage is
 * not reset (its refreshes are retried with a backoff) and hears of partitions added after it. The broker is this
 * test's own, not the shared one.
 */
class KafkaClientBrokerRestartTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension()
        .anchor(KafkaClientBrokerRestartTest.class)
        .property(KafkaBinding.CLIENT_METADATA_MAX_AGE, 500);

    @Test
    void shouldReconnectAfterTheBrokerRestarts() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            kafka.createTopic("before", 4);
            final int nodeId = KafkaClientMetaTest.brokerNodeId(kafka);
            engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
            final TestClient app = TestBinding.client("app");

            final TestStream before = app.open(metaBeginEx("before"));
            before.await(WAIT, () -> !metaData(before).isEmpty());
            assertEquals(4, metaData(before).get(0).size());
            final long opened = counter(engine.directory(), "tcp_client", "connections.opened");

            kafka.restart();

            kafka.createTopic("after", 2);
            final TestStream after = app.open(metaBeginEx("after"));
            after.await(WAIT, () -> metaData(after).stream().anyMatch(p -> led(p, 2, nodeId)));
            assertTrue(counter(engine.directory(), "tcp_client", "connections.opened") > opened,
                "a new connection after the restart");

            try (Admin admin = kafka.admin())
            {
                admin.createPartitions(Map.of("before", NewPartitions.increaseTo(6))).all().get(20, TimeUnit.SECONDS);
            }
            before.await(WAIT, () -> metaData(before).stream().anyMatch(p -> led(p, 6, nodeId)));
            assertFalse(before.reset(), "retried through the outage, not reset");
        }
    }

    // all of count partitions, in order, led by the node
    private static boolean led(List<int[]> partitions, int count, int nodeId)
    {
        boolean led = partitions.size() == count;
        for (int i = 0; led && i < count; i++)
        {
            led = partitions.get(i)[0] == i && partitions.get(i)[1] == nodeId;
        }
        return led;
    }
}
