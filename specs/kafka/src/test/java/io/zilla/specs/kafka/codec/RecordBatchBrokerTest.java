/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.specs.kafka.codec;

import static io.zilla.specs.kafka.codec.RecordSamples.append;
import static io.zilla.specs.kafka.codec.RecordSamples.assertOctets;
import static io.zilla.specs.kafka.codec.RecordSamples.bytes;
import static io.zilla.specs.kafka.codec.RecordSamples.records;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The codec against a real broker: batches from our encoder produced with a raw Produce and read by a KafkaConsumer,
 * and batches from a KafkaProducer (transactions included) fetched with a raw Fetch and read by our decoder.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class RecordBatchBrokerTest
{
    private static final short PRODUCE_VERSION = 9;
    private static final short FETCH_VERSION = 12;
    private static final byte READ_UNCOMMITTED = 0;
    private static final byte READ_COMMITTED = 1;

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldProduceBatchesTheBrokerAccepts(
        RecordCompression compression,
        EmbeddedKafka kafka,
        KafkaTopics topics) throws Exception
    {
        final String topic = topics.name() + "-" + compression;
        kafka.createTopic(topic, 1);
        final List<SimpleRecord> records = records(40);
        final RecordBatchEncoder encoder = new RecordBatchEncoder();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256 * 1024]);
        int length = 0;
        for (int batch = 0; batch < 2; batch++)
        {
            assertTrue(encoder.begin(buffer, 0, buffer.capacity(), compression));
            append(encoder, records.subList(batch * 20, batch * 20 + 20), true);
            length = encoder.finish();
            try (RawKafkaClient client = new RawKafkaClient("127.0.0.1", kafka.port()))
            {
                assertEquals(batch * 20L, produce(client, topic, buffer, length));
            }
        }

        try (KafkaConsumer<byte[], byte[]> consumer = consumer(kafka, "read_uncommitted"))
        {
            final List<ConsumerRecord<byte[], byte[]>> consumed = consume(consumer, topic, records.size());
            for (int i = 0; i < records.size(); i++)
            {
                final SimpleRecord expected = records.get(i);
                final ConsumerRecord<byte[], byte[]> actual = consumed.get(i);
                assertEquals(i, actual.offset());
                assertEquals(expected.timestamp(), actual.timestamp());
                assertEquals(expected.key(), actual.key() == null ? null : ByteBuffer.wrap(actual.key()));
                assertEquals(expected.value(), actual.value() == null ? null : ByteBuffer.wrap(actual.value()));
                assertArrayEquals(expected.headers(), actual.headers().toArray());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldDecodeWhatAProducerWrote(
        RecordCompression compression,
        EmbeddedKafka kafka,
        KafkaTopics topics) throws Exception
    {
        final String topic = topics.name() + "-" + compression;
        kafka.createTopic(topic, 1);
        final List<SimpleRecord> records = records(200);
        final Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression.name().toLowerCase());
        config.put(ProducerConfig.LINGER_MS_CONFIG, 50);
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, config))
        {
            for (SimpleRecord record : records)
            {
                producer.send(new ProducerRecord<>(topic, 0, record.timestamp(), array(record.key()),
                    array(record.value()), List.of(record.headers())));
            }
            producer.flush();
        }

        final FetchResponseData.PartitionData partition = fetch(kafka, topic, READ_UNCOMMITTED);
        final RecordBatchDecoder decoder = decode(partition);
        int index = 0;
        while (decoder.nextBatch())
        {
            assertEquals(compression, decoder.compression());
            assertTrue(decoder.producerId() >= 0, "an idempotent producer by default");
            while (decoder.nextRecord())
            {
                final SimpleRecord expected = records.get(index);
                final DecodedRecord actual = decoder.record();
                assertEquals(index, actual.offset());
                assertEquals(expected.timestamp(), actual.timestamp());
                assertOctets(expected.key(), actual.key());
                assertOctets(expected.value(), actual.value());
                assertEquals(expected.headers().length, actual.headerCount());
                for (Header header : expected.headers())
                {
                    assertTrue(actual.nextHeader());
                    assertArrayEquals(bytes(header.key()), bytes(actual.header().name()));
                }
                index++;
            }
        }
        assertEquals(RecordBatchDecoder.NO_ERROR, decoder.error());
        assertEquals(records.size(), index);
    }

    @Test
    void shouldDropAbortedTransactionsAsReadCommittedDoes(
        EmbeddedKafka kafka,
        KafkaTopics topics) throws Exception
    {
        final String topic = topics.create();
        final Map<String, Object> config = new HashMap<>();
        config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, topic + "-tx");
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, config))
        {
            producer.initTransactions();
            sendInTransaction(producer, topic, "committed-1-", 3, true);
            sendInTransaction(producer, topic, "aborted-", 4, false);
            sendInTransaction(producer, topic, "committed-2-", 2, true);
        }
        awaitMarkers(kafka, topic);

        // read_uncommitted: every batch, the markers included, each with the producer id and its commit or abort
        final List<String> markers = new ArrayList<>();
        final RecordBatchDecoder decoder = decode(fetch(kafka, topic, READ_UNCOMMITTED));
        while (decoder.nextBatch())
        {
            assertTrue(decoder.isTransactional());
            if (decoder.isControl())
            {
                markers.add(decoder.controlType() == RecordBatches.CONTROL_COMMIT ? "commit" : "abort");
            }
        }
        assertEquals(List.of("commit", "abort", "commit"), markers);

        // read_committed: the response's aborted transactions and the batches' fields drop the aborted records, as the
        // KafkaConsumer does it: a producer's transactional batches are dropped from the first offset of its aborted
        // transaction to its abort marker
        final FetchResponseData.PartitionData partition = fetch(kafka, topic, READ_COMMITTED);
        assertEquals(1, partition.abortedTransactions().size());
        final List<FetchResponseData.AbortedTransaction> abortedTransactions = new ArrayList<>(partition.abortedTransactions());
        abortedTransactions.sort(Comparator.comparingLong(FetchResponseData.AbortedTransaction::firstOffset));
        final Set<Long> abortedProducers = new HashSet<>();
        final RecordBatchDecoder committed = decode(partition);
        final List<String> values = new ArrayList<>();
        while (committed.nextBatch())
        {
            while (!abortedTransactions.isEmpty() && abortedTransactions.get(0).firstOffset() <= committed.lastOffset())
            {
                abortedProducers.add(abortedTransactions.remove(0).producerId());
            }
            if (committed.isControl())
            {
                if (committed.controlType() == RecordBatches.CONTROL_ABORT)
                {
                    abortedProducers.remove(committed.producerId());
                }
            }
            else if (!committed.isTransactional() || !abortedProducers.contains(committed.producerId()))
            {
                while (committed.nextRecord())
                {
                    values.add(new String(bytes(committed.record().value())));
                }
            }
        }
        assertEquals(RecordBatchDecoder.NO_ERROR, committed.error());
        assertEquals(List.of("committed-1-0", "committed-1-1", "committed-1-2", "committed-2-0", "committed-2-1"), values);
    }

    private static void sendInTransaction(
        KafkaProducer<byte[], byte[]> producer,
        String topic,
        String prefix,
        int count,
        boolean commit) throws Exception
    {
        producer.beginTransaction();
        for (int i = 0; i < count; i++)
        {
            producer.send(new ProducerRecord<>(topic, 0, null, bytes(prefix + i))).get();
        }
        if (commit)
        {
            producer.commitTransaction();
        }
        else
        {
            producer.abortTransaction();
        }
    }

    private static long produce(
        RawKafkaClient client,
        String topic,
        UnsafeBuffer buffer,
        int length) throws Exception
    {
        final ProduceRequestData.TopicProduceDataCollection topicData = new ProduceRequestData.TopicProduceDataCollection();
        topicData.add(new ProduceRequestData.TopicProduceData()
            .setName(topic)
            .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                .setIndex(0)
                .setRecords(MemoryRecords.readableRecords(ByteBuffer.wrap(buffer.byteArray(), 0, length))))));
        final ProduceRequestData request = new ProduceRequestData()
            .setAcks((short) -1)
            .setTimeoutMs(30_000)
            .setTopicData(topicData);
        final ProduceResponseData response = new ProduceResponseData(client.send(request, PRODUCE_VERSION), PRODUCE_VERSION);
        final ProduceResponseData.PartitionProduceResponse partition = response.responses().iterator().next()
            .partitionResponses().get(0);
        assertEquals(0, partition.errorCode(), "produce error " + partition.errorCode() + " " + partition.errorMessage());
        return partition.baseOffset();
    }

    private static FetchResponseData.PartitionData fetch(
        EmbeddedKafka kafka,
        String topic,
        byte isolation) throws Exception
    {
        final FetchRequestData request = new FetchRequestData()
            .setReplicaId(-1)
            .setMaxWaitMs(100)
            .setMinBytes(1)
            .setMaxBytes(64 * 1024 * 1024)
            .setIsolationLevel(isolation)
            .setTopics(List.of(new FetchRequestData.FetchTopic()
                .setTopic(topic)
                .setPartitions(List.of(new FetchRequestData.FetchPartition()
                    .setPartition(0)
                    .setFetchOffset(0L)
                    .setPartitionMaxBytes(64 * 1024 * 1024)))));
        try (RawKafkaClient client = new RawKafkaClient("127.0.0.1", kafka.port()))
        {
            final FetchResponseData response = new FetchResponseData(client.send(request, FETCH_VERSION), FETCH_VERSION);
            assertEquals(0, response.errorCode());
            final FetchResponseData.PartitionData partition = response.responses().get(0).partitions().get(0);
            assertEquals(0, partition.errorCode());
            return partition;
        }
    }

    private static RecordBatchDecoder decode(
        FetchResponseData.PartitionData partition)
    {
        final ByteBuffer records = ((MemoryRecords) partition.records()).buffer();
        final UnsafeBuffer buffer = RecordSamples.copy(records);
        assertFalse(buffer.capacity() == 0, "fetched nothing");
        return new RecordBatchDecoder().wrap(buffer, 0, buffer.capacity());
    }

    private static KafkaProducer<byte[], byte[]> producer(
        EmbeddedKafka kafka,
        Map<String, Object> config)
    {
        final Map<String, Object> all = new HashMap<>(config);
        all.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        return new KafkaProducer<>(all, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static KafkaConsumer<byte[], byte[]> consumer(
        EmbeddedKafka kafka,
        String isolation)
    {
        final Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation);
        config.put(ConsumerConfig.CHECK_CRCS_CONFIG, true);
        return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    }

    private static List<ConsumerRecord<byte[], byte[]>> consume(
        KafkaConsumer<byte[], byte[]> consumer,
        String topic,
        int count)
    {
        final TopicPartition partition = new TopicPartition(topic, 0);
        consumer.assign(List.of(partition));
        consumer.seekToBeginning(List.of(partition));
        final List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (records.size() < count && System.nanoTime() < deadline)
        {
            consumer.poll(Duration.ofMillis(200)).forEach(records::add);
        }
        assertEquals(count, records.size());
        return records;
    }

    private static byte[] array(
        ByteBuffer buffer)
    {
        byte[] bytes = null;
        if (buffer != null)
        {
            bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
        }
        return bytes;
    }

    // commitTransaction returns once the coordinator has logged the commit; it writes the partition's marker after:
    // wait until the last stable offset (read_committed's end) has reached the log end, i.e. every marker is written
    private static void awaitMarkers(EmbeddedKafka kafka, String topic) throws Exception
    {
        final TopicPartition partition = new TopicPartition(topic, 0);
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try (Admin admin = kafka.admin())
        {
            long stable = -1L;
            long end = 0L;
            while (stable != end && System.nanoTime() < deadline)
            {
                stable = admin.listOffsets(Map.of(partition, OffsetSpec.latest()),
                    new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).partitionResult(partition).get().offset();
                end = admin.listOffsets(Map.of(partition, OffsetSpec.latest()),
                    new ListOffsetsOptions(IsolationLevel.READ_UNCOMMITTED)).partitionResult(partition).get().offset();
                if (stable != end)
                {
                    Thread.sleep(20);
                }
            }
            assertEquals(end, stable, "the last stable offset reaches the log end once the markers are written");
        }
    }
}
