/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedBeginEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedProduceDataEx;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Produce requests that carry several partitions' batches ({@code KafkaProduceGroups}): at the default max.in.flight,
 * the batches of sixteen partitions ready while a request is in flight go together once it is answered, so a few
 * requests carry every record, each partition's in order.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientProduceGroupsTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int WHOLE = 0x03;
    private static final int PARTITIONS = 16;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientProduceGroupsTest.class);

    @Test
    void shouldProduceTheBatchesOfManyPartitionsInOneRequest(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(PARTITIONS);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
        final TestClient app = TestBinding.client("app");
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_ONLY, Map.of(), List.of(),
            KafkaAckMode.IN_SYNC_REPLICAS));
        // null keys: round robin, record i to partition i % 16; a record each first, so that every partition's produce
        // stream is open, then the rest in one pass of the worker, as records of many requests come under load
        final byte[] dataEx = mergedProduceDataEx(0, 0L, -1, null, List.of());
        app.send(stream, PARTITIONS, KafkaClientProduceGroupsTest::value, i -> dataEx, WHOLE);
        stream.await(WAIT, () -> stream.reset() || stream.waiting() == 0 && stream.acknowledged() == stream.sequence());
        final long opened = counter(engine.directory(), "kafka_client", "produce.requests");
        final int count = 100 * PARTITIONS;
        app.send(stream, count - PARTITIONS, i -> value(PARTITIONS + i), i -> dataEx, WHOLE);
        stream.await(WAIT, () -> stream.reset() || stream.waiting() == 0 && stream.acknowledged() == stream.sequence());
        assertFalse(stream.reset(), () -> "reset with " + resetError(stream) + ", events " + engine.events());

        final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, topic, PARTITIONS, count);
        assertEquals(count, consumed.size(), "every record once");
        final int[] next = new int[PARTITIONS];
        Arrays.setAll(next, p -> p);
        for (ConsumerRecord<byte[], byte[]> record : consumed)
        {
            final int i = Integer.parseInt(new String(record.value(), UTF_8).substring(0, 8).trim());
            assertEquals(i % PARTITIONS, record.partition(), "partition of " + i);
            assertEquals(next[record.partition()], i, "in order on partition " + record.partition());
            next[record.partition()] = i + PARTITIONS;
        }
        // every partition had a batch at least: few requests carried several partitions each (3 here; before the
        // connection's Nagle rule, the first max.in.flight of them went alone)
        final long requests = counter(engine.directory(), "kafka_client", "produce.requests") - opened;
        assertTrue(requests < PARTITIONS / 2, "requests for " + PARTITIONS + " partitions' records: " + requests);

        app.end(stream);
        stream.await(WAIT, stream::ended);
    }

    // the index in its first 8 bytes, then padding to 100 bytes
    private static byte[] value(int i)
    {
        final byte[] value = new byte[100];
        Arrays.fill(value, (byte) 'x');
        final byte[] index = String.format("%-8d", i).getBytes(UTF_8);
        System.arraycopy(index, 0, value, 0, index.length);
        return value;
    }
}
