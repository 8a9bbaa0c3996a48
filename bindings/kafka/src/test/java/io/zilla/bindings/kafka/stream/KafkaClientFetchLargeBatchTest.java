/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.dataFrames;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.fetchBeginEx;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.test.KafkaFetchStreams;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * FETCH of record batches larger than a buffer slot (64 KiB): written by a KafkaProducer with a large batch.size, or
 * one large record, and read back exactly through the kafka client from the shared real broker.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientFetchLargeBatchTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int SLOT = 64 * 1024;
    private static final int BATCH_SIZE = 262_144;
    private static final int RECORDS = 2_000;
    private static final int VALUE_SIZE = 1024;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientFetchTest.class);

    @Test
    void shouldFetchBatchesLargerThanASlot(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        final List<ProducerRecord<byte[], byte[]>> produced = produce(kafka, topic, 0, "none", false);

        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST));
        awaitValues(stream, produced);
        assertRecords(produced, stream);
    }

    @Test
    void shouldFetchCompressedBatchesLargerThanASlot(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        // random values: lz4 cannot shrink the batches below a slot
        final List<ProducerRecord<byte[], byte[]>> produced = produce(kafka, topic, 0, "lz4", true);

        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST));
        awaitValues(stream, produced);
        assertRecords(produced, stream);
    }

    @Test
    void shouldFetchLargeBatchesOfPartitionsThatShareAFetch(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        // two partitions of one leader in one Fetch: the broker returns whole only the first batch of the first partition
        // with records, and part of a batch of the next one when bytes are left: partition 0's small batches leave some
        final String topic = topics.create(2);
        final List<ProducerRecord<byte[], byte[]>> produced0 = produce(kafka, topic, 0, "none", false, 16_384);
        final List<ProducerRecord<byte[], byte[]>> produced1 = produce(kafka, topic, 1, "none", true, BATCH_SIZE);

        final TestClient app = start(kafka);
        final TestStream stream0 = app.open(fetchBeginEx(topic, 0, EARLIEST));
        final TestStream stream1 = app.open(fetchBeginEx(topic, 1, EARLIEST));
        awaitValues(stream0, produced0);
        awaitValues(stream1, produced1);
        assertRecords(produced0, stream0);
        assertRecords(produced1, stream1);
    }

    @Test
    void shouldFetchARecordLargerThanASlotInFragments(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.name() + "-huge";
        // the broker's message.max.bytes (1048588 by default) admits it: no topic max.message.bytes needed
        kafka.createTopic(topic, 1);
        final byte[] huge = randomBytes(new Random(7), 900 * 1024);
        final List<ProducerRecord<byte[], byte[]>> produced = List.of(
            new ProducerRecord<>(topic, 0, "before".getBytes(UTF_8), "small".getBytes(UTF_8)),
            new ProducerRecord<>(topic, 0, "huge".getBytes(UTF_8), huge),
            new ProducerRecord<>(topic, 0, "after".getBytes(UTF_8), "small again".getBytes(UTF_8)));
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", BATCH_SIZE))
        {
            for (ProducerRecord<byte[], byte[]> record : produced)
            {
                producer.send(record).get(20, TimeUnit.SECONDS);
            }
        }

        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST), 4096);
        awaitValues(stream, produced);

        final List<KafkaFetchStreams.Fetched> fetched = records(stream);
        assertEquals(List.of(0L, 1L, 2L), fetched.stream().map(KafkaFetchStreams.Fetched::offset).toList());
        assertEquals(List.of("before", "huge", "after"), fetched.stream().map(KafkaFetchStreams.Fetched::key).toList());
        assertArrayEquals(values(produced), stream.received(), "values");
        final int deferred = fetched.get(1).deferred();
        assertTrue(deferred >= huge.length - 4096 && deferred < huge.length, "the huge value comes in fragments of the 4 KiB"
            + " window: " + deferred + " bytes deferred");
        assertTrue(dataFrames(stream) >= 2 + huge.length / 4096, "two records and the fragments: " + dataFrames(stream));
    }

    @Test
    void shouldResetABatchLargerThanTheBound(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        produce(kafka, topic, 0, "none", false);

        engine.property(KafkaBinding.CLIENT_FETCH_MAX_BATCH_BYTES, 128 * 1024);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST));
        stream.await(WAIT, stream::reset);
        assertEquals(Short.valueOf((short) 10), resetError(stream), "MESSAGE_TOO_LARGE");
        assertTrue(records(stream).isEmpty(), "nothing of the batch delivered");
        assertFalse(stream.ended());
    }

    private TestClient start(EmbeddedKafka kafka)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
        return TestBinding.client("app");
    }

    // RECORDS values of VALUE_SIZE bytes to one partition, in batches of about BATCH_SIZE: checked to exceed a slot
    static List<ProducerRecord<byte[], byte[]>> produce(EmbeddedKafka kafka, String topic, int partition,
        String compression, boolean random) throws Exception
    {
        return produce(kafka, topic, partition, compression, random, BATCH_SIZE);
    }

    private static List<ProducerRecord<byte[], byte[]>> produce(EmbeddedKafka kafka, String topic, int partition,
        String compression, boolean random, int batchSize) throws Exception
    {
        final Random values = new Random(partition);
        final List<ProducerRecord<byte[], byte[]>> produced = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++)
        {
            final byte[] value = random ? randomBytes(values, VALUE_SIZE) : text(i, VALUE_SIZE);
            produced.add(new ProducerRecord<>(topic, partition, ("key-" + i).getBytes(UTF_8), value));
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, compression, batchSize))
        {
            final List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> record : produced)
            {
                sent.add(producer.send(record));
            }
            for (Future<RecordMetadata> future : sent)
            {
                future.get(30, TimeUnit.SECONDS);
            }
            final double batchSizeMax = producerMetric(producer, "batch-size-max");
            assertTrue(batchSizeMax > 2 * SLOT == batchSize > 2 * SLOT, "batches of at most " + batchSizeMax + " bytes");
        }
        return produced;
    }

    private static KafkaProducer<byte[], byte[]> producer(EmbeddedKafka kafka, String compression, int batchSize)
    {
        final Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        properties.put(ProducerConfig.BATCH_SIZE_CONFIG, batchSize);
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 100);
        properties.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 1_048_576);
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static double producerMetric(KafkaProducer<byte[], byte[]> producer, String name)
    {
        double value = Double.NaN;
        for (Map.Entry<MetricName, ? extends Metric> metric : producer.metrics().entrySet())
        {
            if (name.equals(metric.getKey().name()) && "producer-metrics".equals(metric.getKey().group()))
            {
                value = ((Number) metric.getValue().metricValue()).doubleValue();
            }
        }
        return value;
    }

    private static void awaitValues(TestStream stream, List<ProducerRecord<byte[], byte[]>> produced)
    {
        final int length = values(produced).length;
        stream.await(WAIT, () -> stream.received().length >= length || stream.reset() || stream.aborted());
        assertFalse(stream.reset(), "stream reset");
        assertFalse(stream.aborted(), "stream aborted");
    }

    // every record, in order: offset, key, whole value
    private static void assertRecords(List<ProducerRecord<byte[], byte[]>> expected, TestStream stream)
    {
        final List<KafkaFetchStreams.Fetched> fetched = records(stream);
        assertEquals(expected.size(), fetched.size(), "records");
        for (int i = 0; i < expected.size(); i++)
        {
            final KafkaFetchStreams.Fetched got = fetched.get(i);
            assertEquals(i, got.offset(), "offset of record " + i);
            assertEquals(new String(expected.get(i).key(), UTF_8), got.key(), "key of record " + i);
            assertEquals(0, got.deferred(), "record " + i + " whole in one Data");
        }
        assertArrayEquals(values(expected), stream.received(), "values");
    }

    static byte[] values(List<ProducerRecord<byte[], byte[]>> records)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        records.forEach(r -> bytes.writeBytes(r.value()));
        return bytes.toByteArray();
    }

    private static byte[] text(int index, int size)
    {
        final byte[] value = new byte[size];
        final byte[] prefix = ("value-" + index + "-").getBytes(UTF_8);
        for (int i = 0; i < size; i++)
        {
            value[i] = i < prefix.length ? prefix[i] : (byte) ('a' + (index + i) % 26);
        }
        return value;
    }

    private static byte[] randomBytes(Random random, int size)
    {
        final byte[] value = new byte[size];
        random.nextBytes(value);
        return value;
    }
}
