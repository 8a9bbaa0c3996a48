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
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.test.KafkaFaultRelay;
import io.zilla.bindings.kafka.test.KafkaProduceStreams.Header;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ProducerState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * PRODUCE streams at full credit: several Produce requests in flight per stream (the counter
 * {@code produce.inflight.peak}), batches of many records, and the records in order per partition, also when every
 * batch in flight is sent again after a broker restart.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientProducePipelineTest
{
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int WHOLE = 0x03;
    private static final int VALUE_SIZE = 1024;

    @RegisterExtension
    // KafkaFaultRelay reads one partition a Produce request: the batches of the partitions go in requests of their own
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientProducePipelineTest.class)
        .property(KafkaBinding.CLIENT_PRODUCE_REQUEST_PARTITIONS, 1);

    @Test
    void shouldKeepSeveralRequestsInFlightAndTheRecordsInOrder(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final int count = 4000;
        produceInOrder(kafka, topics.create(1), count, KafkaClientProducePipelineTest::value,
            i -> produceDataEx(0, 0L, null, List.of()));

        final long peak = counter(engine.directory(), "kafka_client", "produce.inflight.peak");
        assertTrue(peak > 1 && peak <= KafkaBinding.DEFAULT_CLIENT_PRODUCE_MAX_IN_FLIGHT, "requests in flight at once: " + peak);
        // a batcher that sends one record per request makes count requests; how many records a batch gathers beyond
        // that depends on how fast the broker answers against the app's pace (7.7 a request on a CI host with
        // CPU steal), so the bound only asks for several
        final long requests = counter(engine.directory(), "kafka_client", "produce.requests");
        assertTrue(requests < count / 3, "batches of many records: " + requests + " requests for " + count);
    }

    @Test
    void shouldCloseABatchEarlyWhenKeysAndHeadersOutgrowItsRoom(EmbeddedKafka kafka, KafkaTopics topics)
    {
        // the padding covers a record's framing, not its key and headers: at full credit these 100-byte records bring
        // about as many bytes again of key and header, so batches close before their credit is used
        final int count = 3000;
        final List<ConsumerRecord<byte[], byte[]>> consumed = produceInOrder(kafka, topics.create(1), count,
            i -> Arrays.copyOf(value(i), 100), i -> produceDataEx(0, 0L, key(i), List.of(new Header("trace", trace(i)))));
        for (int i = 0; i < count; i++)
        {
            final ConsumerRecord<byte[], byte[]> record = consumed.get(i);
            assertArrayEquals(key(i), record.key());
            assertArrayEquals(Arrays.copyOf(value(i), 100), record.value());
            assertEquals(1, record.headers().toArray().length);
            assertArrayEquals(trace(i), record.headers().lastHeader("trace").value());
        }
        // not one record per request (count requests) even though batches close early; the margin is for slow hosts
        final long requests = counter(engine.directory(), "kafka_client", "produce.requests");
        assertTrue(requests < count / 3, "batches of several records: " + requests + " requests for " + count);
    }

    @Test
    void shouldSlowTheAppDownWhenKeysAndHeadersOutweighValues(EmbeddedKafka kafka, KafkaTopics topics)
    {
        // 12-byte values with a key and 13 headers of about 100 bytes: at a padding of the framing alone, a window's
        // records outgrew the stream's regions and the stream was reset (10); the padding now follows the key and headers
        final int count = 10_000;
        final List<ConsumerRecord<byte[], byte[]>> consumed = produceInOrder(kafka, topics.create(1), count,
            i -> Arrays.copyOf(value(i), 12), i -> produceDataEx(0, 0L, key(i), manyHeaders(i)));
        for (int i = 0; i < count; i++)
        {
            final ConsumerRecord<byte[], byte[]> record = consumed.get(i);
            assertArrayEquals(key(i), record.key());
            assertEquals(13, record.headers().toArray().length);
            assertArrayEquals(trace(i), record.headers().lastHeader("h12").value());
        }
    }

    /*
     * Sends count records at full credit on one PRODUCE stream to partition 0 of the topic, the record i with value(i)
     * and dataEx(i), and ends it: every record acknowledged, then in the log once and in order, as returned.
     */
    private List<ConsumerRecord<byte[], byte[]>> produceInOrder(EmbeddedKafka kafka, String topic, int count,
        IntFunction<byte[]> value, IntFunction<byte[]> dataEx)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
        final TestClient app = TestBinding.client("app");
        final TestStream stream = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        for (int i = 0; i < count; i++)
        {
            app.send(stream, value.apply(i), dataEx.apply(i), WHOLE);
        }
        app.end(stream);
        stream.await(WAIT, () -> stream.ended() || stream.reset());
        assertFalse(stream.reset(), () -> "reset with " + resetError(stream) + ", events " + engine.events());
        assertEquals(stream.sequence(), stream.acknowledged(), "every record acknowledged");

        final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, topic, 1, count);
        assertEquals(count, consumed.size(), "every record once");
        for (int i = 0; i < count; i++)
        {
            assertEquals(i, index(consumed.get(i)), "in order");
        }
        return consumed;
    }

    private static List<Header> manyHeaders(int i)
    {
        final List<Header> headers = new ArrayList<>();
        for (int h = 0; h < 13; h++)
        {
            headers.add(new Header("h" + h, trace(i)));
        }
        return headers;
    }

    @Test
    void shouldSendEveryBatchInFlightAgainInOrderThroughABrokerRestart() throws Exception
    {
        final int count = 8000;
        try (KafkaFaultRelay relay = new KafkaFaultRelay();
             EmbeddedKafka kafka = relay.startBroker())
        {
            // the broker answered every batch before it restarted once (0 requests failed, no retry): however fast the
            // host, the requests from a partition's 4th batch on are lost until the restart now, so that batches of both
            // partitions are in flight when it comes. Requests, not answers: a restarted broker knows a producer's last
            // batch only, and refused the earlier ones of several it had written but not answered with
            // OUT_OF_ORDER_SEQUENCE_NUMBER (KafkaClientProduceRestartTest sends one written batch again)
            relay.loseProduceRequests(3);
            kafka.createTopic("pipelined", 2);
            engine.env("KAFKA_BOOTSTRAP", "127.0.0.1:" + relay.port()).start("client.yaml");
            final TestClient app = TestBinding.client("app");

            final TestStream init = app.open(initProducerIdBeginEx());
            init.await(WAIT, () -> replyBeginEx(init) != null || init.reset());
            final KafkaBeginExFW beginEx = replyBeginEx(init);
            final long producerId = beginEx.initProducerId().producerId();
            final short producerEpoch = beginEx.initProducerId().producerEpoch();
            app.end(init);
            init.await(WAIT, init::ended);

            final List<TestStream> streams = List.of(
                app.open(produceBeginEx("pipelined", 0, producerId, producerEpoch, KafkaAckMode.IN_SYNC_REPLICAS)),
                app.open(produceBeginEx("pipelined", 1, producerId, producerEpoch, KafkaAckMode.IN_SYNC_REPLICAS)));
            for (int i = 0; i < count; i++)
            {
                app.send(streams.get(i % 2), value(i), produceDataEx(0, 0L, null, List.of()), WHOLE);
            }
            for (int p = 0; p < 2; p++)
            {
                assertTrue(relay.awaitLost("pipelined", p, 2, WAIT), "requests in flight on partition " + p);
            }
            streams.get(0).await(WAIT, () -> streams.get(0).acknowledged() > 0);
            kafka.restart();
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
            assertTrue(counter(engine.directory(), "kafka_client", "produce.retries") > 0, () -> "retried: " + engine.events());
            final long peak = counter(engine.directory(), "kafka_client", "produce.inflight.peak");
            assertTrue(peak > 1, "requests in flight at once: " + peak);

            final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, "pipelined", 2, count);
            assertEquals(count, consumed.size(), "every record exactly once");
            final int[] next = {0, 1};
            final boolean[] seen = new boolean[count];
            for (ConsumerRecord<byte[], byte[]> record : consumed)
            {
                final int i = index(record);
                assertEquals(i % 2, record.partition());
                assertEquals(next[record.partition()], i, "in order on partition " + record.partition());
                next[record.partition()] = i + 2;
                seen[i] = true;
            }
            for (int i = 0; i < count; i++)
            {
                assertTrue(seen[i], "record " + i);
            }
            try (Admin admin = kafka.admin())
            {
                for (int p = 0; p < 2; p++)
                {
                    final TopicPartition partition = new TopicPartition("pipelined", p);
                    final List<ProducerState> producers = admin.describeProducers(List.of(partition))
                        .partitionResult(partition).get(20, TimeUnit.SECONDS).activeProducers();
                    assertEquals(1, producers.size());
                    assertEquals(count / 2 - 1, producers.get(0).lastSequence(), "consecutive sequences, every one taken");
                }
            }
        }
    }

    // "r-<i>-" then filler up to VALUE_SIZE bytes
    private static byte[] value(int i)
    {
        final byte[] value = new byte[VALUE_SIZE];
        Arrays.fill(value, (byte) 'x');
        final byte[] prefix = ("r-" + i + "-").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(prefix, 0, value, 0, prefix.length);
        return value;
    }

    // 32 bytes
    private static byte[] key(int i)
    {
        return String.format("key-%028d", i).getBytes(StandardCharsets.UTF_8);
    }

    // 96 bytes
    private static byte[] trace(int i)
    {
        return String.format("trace-%090d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static int index(ConsumerRecord<byte[], byte[]> record)
    {
        final String value = new String(record.value(), StandardCharsets.UTF_8);
        return Integer.parseInt(value.substring(2, value.indexOf('-', 2)));
    }
}
