/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.replyBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.initProducerIdBeginEx;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceBeginEx;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceDataEx;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.test.KafkaFaultRelay;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PRODUCE streams that stay open while their broker stops and starts again (this test's own broker, same ports and
 * data): the batch in flight and the records that came meanwhile are sent again once the broker is back. With a
 * producer id from INIT_PRODUCER_ID, the broker takes the sequences and drops what it already had, so a KafkaConsumer
 * sees every record exactly once; without one, every record is there, in order of first appearance.
 */
class KafkaClientProduceRestartTest
{
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int RECORDS = 600;
    private static final int WHOLE = 0x03;

    @RegisterExtension
    // KafkaFaultRelay reads one partition a Produce request: the batches of the partitions go in requests of their own
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientProduceRestartTest.class)
        .property(KafkaBinding.CLIENT_PRODUCE_REQUEST_PARTITIONS, 1);

    @Test
    void shouldProduceIdempotentlyThroughABrokerRestart() throws Exception
    {
        try (KafkaFaultRelay relay = new KafkaFaultRelay();
             EmbeddedKafka kafka = relay.startBroker())
        {
            kafka.createTopic("idempotent", 2);
            engine.env("KAFKA_BOOTSTRAP", "127.0.0.1:" + relay.port()).start("client.yaml");
            final TestClient app = TestBinding.client("app");

            final TestStream init = app.open(initProducerIdBeginEx());
            init.await(WAIT, () -> replyBeginEx(init) != null || init.reset());
            final KafkaBeginExFW beginEx = replyBeginEx(init);
            assertEquals(KafkaCapability.INIT_PRODUCER_ID, beginEx.kind());
            final long producerId = beginEx.initProducerId().producerId();
            final short producerEpoch = beginEx.initProducerId().producerEpoch();
            assertTrue(producerId >= 0 && producerEpoch >= 0, "a producer id and epoch: " + producerId + "/" + producerEpoch);
            app.end(init);
            init.await(WAIT, init::ended);

            final List<TestStream> streams = produceThroughRestart(relay, kafka, app, "idempotent", producerId,
                producerEpoch);

            final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, "idempotent", 2,
                RECORDS);
            assertEquals(RECORDS, consumed.size(), "every record exactly once");
            assertInOrder(consumed, true);
            try (Admin admin = kafka.admin())
            {
                for (int p = 0; p < streams.size(); p++)
                {
                    final TopicPartition partition = new TopicPartition("idempotent", p);
                    final List<ProducerState> producers = admin.describeProducers(List.of(partition))
                        .partitionResult(partition).get(20, TimeUnit.SECONDS).activeProducers();
                    assertEquals(1, producers.size());
                    assertEquals(producerId, producers.get(0).producerId());
                    assertEquals(producerEpoch, producers.get(0).producerEpoch());
                    assertEquals(RECORDS / 2 - 1, producers.get(0).lastSequence(), "the broker took every sequence");
                }
            }
        }
    }

    @Test
    void shouldRecoverAPlainProduceThroughABrokerRestart() throws Exception
    {
        try (KafkaFaultRelay relay = new KafkaFaultRelay();
             EmbeddedKafka kafka = relay.startBroker())
        {
            kafka.createTopic("plain", 2);
            engine.env("KAFKA_BOOTSTRAP", "127.0.0.1:" + relay.port()).start("client.yaml");
            final TestClient app = TestBinding.client("app");

            produceThroughRestart(relay, kafka, app, "plain", -1L, (short) -1);

            final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, "plain", 2, RECORDS);
            assertTrue(consumed.size() >= RECORDS, "every acknowledged record, maybe some twice: " + consumed.size());
            assertInOrder(consumed, false);
        }
    }

    @Test
    void shouldSendTheBatchInFlightAgainWithItsSequenceWhenTheBrokerIsKilled() throws Exception
    {
        try (KafkaFaultRelay relay = new KafkaFaultRelay();
             EmbeddedKafka kafka = relay.startBroker())
        {
            // the answer to the 4th Produce is lost, and the later ones do not reach the broker until it dies: the batch
            // it wrote and did not answer is in flight then, whatever the host's speed (the test killed it once the
            // first batch was acknowledged, when all of them might have been)
            relay.loseProduceResponse(3);
            kafka.createTopic("killed", 1);
            engine.env("KAFKA_BOOTSTRAP", "127.0.0.1:" + relay.port()).start("client.yaml");
            final TestClient app = TestBinding.client("app");
            final TestStream init = app.open(initProducerIdBeginEx());
            init.await(WAIT, () -> replyBeginEx(init) != null || init.reset());
            final long producerId = replyBeginEx(init).initProducerId().producerId();
            final short producerEpoch = replyBeginEx(init).initProducerId().producerEpoch();
            app.end(init);

            // records in bursts of 100 a few ms apart, until the 4th Produce's answer is lost: a stream batches what
            // comes while its request is in flight (Nagle's rule), so records queued at once would fill two requests
            final int count = 20_000;
            final TestStream stream = app.open(produceBeginEx("killed", 0, producerId, producerEpoch,
                KafkaAckMode.IN_SYNC_REPLICAS));
            boolean killed = false;
            for (int i = 0; i < count; i++)
            {
                final byte[] value = ("r-" + i).getBytes(StandardCharsets.UTF_8);
                app.send(stream, value, produceDataEx(0, 0L, null, List.of()), WHOLE);
                if (!killed && i % 100 == 99)
                {
                    Thread.sleep(5);
                    if (relay.lost("killed", 0) >= 1)
                    {
                        stream.await(WAIT, () -> stream.acknowledged() > 0);
                        // SIGKILL: the broker's page cache keeps what it appended, the answer to the batch in flight
                        // is lost
                        kafka.kill();
                        kafka.restart();
                        killed = true;
                    }
                }
            }
            assertTrue(killed || relay.awaitLost("killed", 0, 1, WAIT), "a Produce in flight");
            if (!killed)
            {
                stream.await(WAIT, () -> stream.acknowledged() > 0);
                kafka.kill();
                kafka.restart();
            }
            app.end(stream);
            stream.await(WAIT, () -> stream.ended() || stream.reset());
            assertFalse(stream.reset(), () -> "reset with " + resetError(stream) + ", events " + engine.events());

            final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, "killed", 1, count);
            assertEquals(count, consumed.size(), "every record exactly once");
            for (int i = 0; i < count; i++)
            {
                assertEquals("r-" + i, new String(consumed.get(i).value(), StandardCharsets.UTF_8));
            }
            try (Admin admin = kafka.admin())
            {
                final TopicPartition partition = new TopicPartition("killed", 0);
                final List<ProducerState> producers = admin.describeProducers(List.of(partition))
                    .partitionResult(partition).get(20, TimeUnit.SECONDS).activeProducers();
                assertEquals(count - 1, producers.get(0).lastSequence());
            }
            // with several Produce requests in flight per stream, all of them (up to max.in.flight) were sent again
            assertTrue(engine.events().stream().anyMatch(e -> e.detail().contains("produce connection")
                    && e.detail().matches(".* [1-9][0-9]* request\\(s\\) failed")),
                () -> "a Produce was in flight when the broker died: " + engine.events());
        }
    }

    /*
     * Sends RECORDS records over two partitions, one every few ms, restarting the broker once some are acknowledged
     * and, whatever the host's speed, some are in flight or held behind one: the relay loses the connection's requests
     * from a partition's 4th on until the broker stops (the sender could have ended, and every batch been answered,
     * before it did).
     */
    private List<TestStream> produceThroughRestart(KafkaFaultRelay relay, EmbeddedKafka kafka, TestClient app, String topic,
        long producerId, short producerEpoch) throws Exception
    {
        relay.loseProduceRequests(3);
        final List<TestStream> streams = List.of(
            app.open(produceBeginEx(topic, 0, producerId, producerEpoch, KafkaAckMode.IN_SYNC_REPLICAS)),
            app.open(produceBeginEx(topic, 1, producerId, producerEpoch, KafkaAckMode.IN_SYNC_REPLICAS)));
        final Thread sender = new Thread(() ->
        {
            for (int i = 0; i < RECORDS; i++)
            {
                final byte[] value = ("r-" + i).getBytes(StandardCharsets.UTF_8);
                app.send(streams.get(i % 2), value, produceDataEx(0, 0L, value, List.of()), WHOLE);
                try
                {
                    Thread.sleep(8);
                }
                catch (InterruptedException ex)
                {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        });
        sender.start();
        // a non-eager batch waits while a request is in flight on its connection (KafkaProduceGroups), so the other
        // partition's records may be held behind the lost request rather than in one: either way they are sent after
        assertTrue(relay.awaitLostOfTopic(topic, streams.size(), 1, WAIT), "a request in flight");
        streams.get(0).await(WAIT, () -> streams.get(0).acknowledged() > 0);
        kafka.restart();
        sender.join(WAIT.toMillis());
        assertFalse(sender.isAlive());
        for (TestStream stream : streams)
        {
            app.end(stream);
        }
        for (TestStream stream : streams)
        {
            stream.await(WAIT, () -> stream.ended() || stream.reset());
            assertFalse(stream.reset(), () -> "reset with " + resetError(stream) + ", events " + engine.events());
            assertEquals(stream.sequence(), stream.acknowledged());
        }
        // a batch was in flight, or waiting for a leader or a connection, while the broker was away: it was sent again
        assertTrue(counter(engine.directory(), "kafka_client", "produce.retries") > 0, () -> "retried: " + engine.events());
        return streams;
    }

    // per partition, the records' numbers rise (their first appearance only, unless exactly once)
    private static void assertInOrder(List<ConsumerRecord<byte[], byte[]>> consumed, boolean exactlyOnce)
    {
        final int[] next = {0, 1};
        final boolean[] seen = new boolean[RECORDS];
        final List<Integer> duplicates = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : consumed)
        {
            final int i = Integer.parseInt(new String(record.value(), StandardCharsets.UTF_8).substring(2));
            assertEquals(i % 2, record.partition());
            if (seen[i])
            {
                duplicates.add(i);
            }
            else
            {
                assertEquals(next[record.partition()], i, "in order on partition " + record.partition());
                next[record.partition()] = i + 2;
                seen[i] = true;
            }
        }
        for (int i = 0; i < RECORDS; i++)
        {
            assertTrue(seen[i], "record " + i);
        }
        if (exactlyOnce)
        {
            assertEquals(List.of(), duplicates);
        }
    }
}
