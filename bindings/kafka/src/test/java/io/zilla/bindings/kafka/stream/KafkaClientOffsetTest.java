/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.stream.KafkaClientGroupTest.pump;
import static io.zilla.bindings.kafka.stream.KafkaClientGroupTest.subscription;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.committed;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.groupBeginEx;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.offsetCommitBeginEx;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.offsetCommitDataEx;
import static io.zilla.bindings.kafka.test.KafkaGroupStreams.offsetFetchBeginEx;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.stream.KafkaClientGroupTest.Member;
import io.zilla.bindings.kafka.test.KafkaGroupStreams.Committed;
import io.zilla.bindings.kafka.test.KafkaGroupStreams.Join;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * OFFSET_COMMIT and OFFSET_FETCH streams against the shared real broker, cross-checked with Admin and a KafkaConsumer
 * of the same group.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientOffsetTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int PARTITIONS = 8;
    private static final int RECORDS_PER_PARTITION = 10;
    private static final int SESSION_TIMEOUT = 6_000;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientOffsetTest.class);

    @Test
    void shouldCommitOffsetsThatOffsetFetchAdminAndAConsumerSee(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        produce(kafka, topic);
        final TestClient app = start(kafka);
        final Member member = join(app, group, topic);
        final Join join = member.latest();

        // partition p at offset 2 + p, with its own metadata
        final TestStream commit = app.open(offsetCommitBeginEx(group, join.memberId(), null, join.generationId(), topic));
        for (int p = 0; p < 4; p++)
        {
            app.send(commit, null, offsetCommitDataEx(p, 2 + p, "meta-" + p, -1), 0x03);
        }
        commit.await(WAIT, () -> commit.waiting() == 0 && commit.sequence() > 0
            && commit.acknowledged() == commit.sequence());
        assertFalse(commit.reset());
        app.end(commit);
        commit.await(WAIT, commit::ended);

        final TestStream fetch = app.open(offsetFetchBeginEx(group, topic, 0, 1, 2, 3, 4));
        fetch.await(WAIT, fetch::ended);
        final Map<Integer, Committed> fetched = byPartition(committed(fetch));
        assertEquals(5, fetched.size());
        for (int p = 0; p < 4; p++)
        {
            assertEquals(new Committed(p, 2 + p, "meta-" + p), fetched.get(p));
        }
        assertEquals(-1L, fetched.get(4).offset(), "partition 4 has no committed offset");

        final TestStream fetchAll = app.open(offsetFetchBeginEx(group, topic));
        fetchAll.await(WAIT, fetchAll::ended);
        assertEquals(List.of(0, 1, 2, 3), List.copyOf(byPartition(committed(fetchAll)).keySet()),
            "no partitions named: those with a committed offset");

        try (Admin admin = kafka.admin())
        {
            final Map<TopicPartition, OffsetAndMetadata> offsets = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(20, TimeUnit.SECONDS);
            assertEquals(4, offsets.size());
            for (int p = 0; p < 4; p++)
            {
                final OffsetAndMetadata offset = offsets.get(new TopicPartition(topic, p));
                assertEquals(2 + p, offset.offset());
                assertEquals("meta-" + p, offset.metadata());
            }
        }

        app.end(member.stream);
        member.stream.await(WAIT, member.stream::ended);

        // a consumer of the group starts where the commits left each partition (partition 4 and up: earliest)
        final Map<Integer, Long> first = new HashMap<>();
        try (KafkaConsumer<byte[], byte[]> consumer = KafkaClientGroupTest.consumer(kafka, group, SESSION_TIMEOUT))
        {
            consumer.subscribe(List.of(topic));
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (first.size() < PARTITIONS && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100)))
                {
                    first.putIfAbsent(record.partition(), record.offset());
                }
            }
        }
        for (int p = 0; p < PARTITIONS; p++)
        {
            assertEquals(p < 4 ? 2L + p : 0L, first.get(p), "first offset consumed from partition " + p);
        }
    }

    @Test
    void shouldResetACommitOfAWrongGeneration(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final String group = "group-" + UUID.randomUUID();
        final TestClient app = start(kafka);
        final Member member = join(app, group, topic);
        final Join join = member.latest();

        final TestStream commit = app.open(offsetCommitBeginEx(group, join.memberId(), null, join.generationId() + 5,
            topic));
        app.send(commit, null, offsetCommitDataEx(0, 1, "stale", -1), 0x03);
        commit.await(WAIT, commit::reset);

        assertEquals(Short.valueOf((short) 22), resetError(commit), "ILLEGAL_GENERATION");
        assertTrue(commit.acknowledged() < commit.sequence(), "the failed commit's credit never came back");
        final TestStream fetch = app.open(offsetFetchBeginEx(group, topic, 0));
        fetch.await(WAIT, fetch::ended);
        assertEquals(List.of(new Committed(0, -1L, null)), committed(fetch).stream()
            .map(c -> new Committed(c.partitionId(), c.offset(), c.metadata() == null || c.metadata().isEmpty()
                ? null : c.metadata()))
            .toList(), "nothing committed");
        app.end(member.stream);
        member.stream.await(WAIT, member.stream::ended);
    }

    private Member join(TestClient app, String group, String topic) throws InterruptedException
    {
        final Member member = new Member(app, app.open(groupBeginEx(group, "consumer", "range", SESSION_TIMEOUT, null,
            subscription(topic))), topic);
        pump(List.of(member), member::assignedInLatest);
        return member;
    }

    private TestClient start(EmbeddedKafka kafka)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
        return TestBinding.client("app");
    }

    private static Map<Integer, Committed> byPartition(List<Committed> committed)
    {
        final Map<Integer, Committed> byPartition = new TreeMap<>();
        committed.forEach(c -> byPartition.put(c.partitionId(), c));
        return byPartition;
    }

    private static void produce(EmbeddedKafka kafka, String topic) throws Exception
    {
        final Properties config = new Properties();
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config))
        {
            for (int p = 0; p < PARTITIONS; p++)
            {
                for (int i = 0; i < RECORDS_PER_PARTITION; i++)
                {
                    producer.send(new ProducerRecord<>(topic, p, null, ("record-" + i).getBytes(UTF_8))).get();
                }
            }
        }
    }
}
