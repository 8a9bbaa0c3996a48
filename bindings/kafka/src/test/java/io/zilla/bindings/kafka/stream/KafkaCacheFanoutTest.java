/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.DEFAULT_PARTITION;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedBeginEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.test.KafkaClientStreams;
import io.zilla.bindings.kafka.test.KafkaMergedStreams.Merged;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The cache's purpose: 2,000 MERGED subscribers of one 8-partition topic, half on each of two workers, all get every
 * record in per-partition order, while the kind client behind the cache fetches each partition once (one FETCH stream
 * per partition, each Fetch request naming a partition once), whatever the number of subscribers.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaCacheFanoutTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 8;
    private static final int PER_PARTITION = 10;
    private static final int SUBSCRIBERS_PER_WORKER = 1_000;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientMergedTest.class).workers(2);

    @Test
    void shouldFetchEachPartitionOnceForEverySubscriberOnEveryWorker(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        // half the records before the subscribers (historical), half after (live)
        produce(kafka, topic, 0, PER_PARTITION / 2);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.yaml");

        final List<TestStream> streams = new ArrayList<>();
        final TestClient first = TestBinding.client("app", 0);
        streams.add(first.open(beginEx(topic)));
        streams.get(0).await(WAIT, () -> records(streams.get(0)).size() >= PARTITIONS * PER_PARTITION / 2);
        final long fetchStreams = counter(engine.directory(), "kafka_client", "streams.opened");

        for (int worker = 0; worker < 2; worker++)
        {
            final TestClient app = TestBinding.client("app", worker);
            for (int i = streams.size() % SUBSCRIBERS_PER_WORKER; i < SUBSCRIBERS_PER_WORKER; i++)
            {
                streams.add(app.open(beginEx(topic)));
            }
        }
        assertEquals(2 * SUBSCRIBERS_PER_WORKER, streams.size());
        produce(kafka, topic, PER_PARTITION / 2, PER_PARTITION);

        for (TestStream stream : streams)
        {
            stream.await(WAIT, () -> stream.reset() || records(stream).size() >= PARTITIONS * PER_PARTITION);
            assertFalse(stream.reset(), "a subscriber was reset");
            assertInOrder(records(stream), PER_PARTITION);
        }

        // the subscribers cost the brokers nothing more: the same streams to the kind client as for the first one,
        // one META and one FETCH per partition, and no Fetch asks for a partition twice
        assertEquals(fetchStreams, counter(engine.directory(), "kafka_client", "streams.opened"),
            "streams opened to the kind client once the first subscriber had its records");
        assertTrue(fetchStreams <= 2 * (1 + PARTITIONS), "one META and one FETCH per partition: " + fetchStreams);
        // partitions first: a Fetch sent between the two reads counts its request before its partitions, so read
        // the other way round a request could be missed while its partitions are not (a flake: 89 in 11 requests)
        final long partitions = counter(engine.directory(), "kafka_client", "fetch.partitions");
        final long requests = counter(engine.directory(), "kafka_client", "fetch.requests");
        assertTrue(requests > 0L);
        assertTrue(partitions <= requests * PARTITIONS, partitions + " partitions in " + requests + " Fetch requests");
    }

    @Test
    void shouldKeepEveryOtherSubscriberGoingWhileOneStalls(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.yaml");
        final TestClient app = TestBinding.client("app", 0);
        // 4 KiB of credit, never given back until resumed: an application that stopped reading
        final TestStream stalled = app.open(beginEx(topic), 4096);
        app.stall(stalled);
        final List<TestStream> others = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            others.add(TestBinding.client("app", i % 2).open(beginEx(topic)));
        }

        final int perPartition = 250;
        final byte[] value = new byte[1024];
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int i = 0; i < perPartition; i++)
            {
                for (int p = 0; p < PARTITIONS; p++)
                {
                    records.add(new ProducerRecord<>(topic, p, ("key-" + p + "-" + i).getBytes(UTF_8), value));
                }
            }
            sendAll(producer, records);
        }
        // awaited by bytes: parsing every record under the stream's lock at each look would hold its worker up
        final int total = PARTITIONS * perPartition * value.length;
        for (TestStream stream : others)
        {
            stream.await(WAIT, () -> stream.receivedBytes() >= total);
            assertInOrder(records(stream), perPartition);
        }
        assertTrue(stalled.received().length <= 4096, "the stalled subscriber got no more than its window: "
            + stalled.received().length);

        app.resume(stalled);
        stalled.await(WAIT, () -> stalled.receivedBytes() >= total);
        assertInOrder(records(stalled), perPartition);
        assertFalse(stalled.reset());
    }

    @Test
    void shouldStartOverWhenTheTopicIsCreatedAgain(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.yaml");
        final TestClient app = TestBinding.client("app", 0);
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            sendAll(producer, keyed(topic, "old", 10));
        }
        final TestStream before = app.open(beginEx(topic));
        before.await(WAIT, () -> records(before).size() >= 10);

        try (Admin admin = kafka.admin())
        {
            admin.deleteTopics(List.of(topic)).all().get(20, TimeUnit.SECONDS);
            awaitTopic(admin, topic, false);
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get(20, TimeUnit.SECONDS);
            awaitTopic(admin, topic, true);
        }
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            sendAll(producer, keyed(topic, "new", 3));
        }

        // the old offsets mean nothing in the new topic: the reader hears so, as from Kafka, and a new one reads it all
        before.await(WAIT, before::reset);
        assertEquals((short) 1, KafkaClientStreams.resetError(before), "OFFSET_OUT_OF_RANGE");
        final TestStream after = app.open(beginEx(topic));
        after.await(WAIT, () -> records(after).size() >= 3);
        assertEquals(List.of("new-0", "new-1", "new-2"), records(after).stream().map(Merged::key).toList());
        assertEquals(List.of(0L, 1L, 2L), records(after).stream().map(Merged::offset).toList());
    }

    @Test
    void shouldStartAStreamWithoutOffsetsWhereTheTopicsDefaultOffsetSays(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String historical = topics.create(1);
        final String unlisted = topics.create(1);
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            sendAll(producer, keyed(historical, "h", 3));
            sendAll(producer, keyed(unlisted, "u", 3));
        }
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).env("TOPIC", historical)
            .startText("cache.topics.yaml", """
                ---
                name: test
                bindings:
                  app:
                    type: test
                    kind: client
                    exit: kafka_cache_client
                  kafka_cache_client:
                    type: kafka
                    kind: cache_client
                    options:
                      topics:
                        - name: ${{env.TOPIC}}
                          defaultOffset: historical
                    exit: kafka_cache_server
                  kafka_cache_server:
                    type: kafka
                    kind: cache_server
                    exit: kafka_client
                  kafka_client:
                    type: kafka
                    kind: client
                    options:
                      servers:
                        - ${{env.KAFKA_BOOTSTRAP}}
                    exit: tcp_client
                  tcp_client:
                    type: tcp
                    kind: client
                """);
        final TestClient app = TestBinding.client("app", 0);
        // no start offset at all: the listed topic from its oldest record, the other from its end, as kind client
        final TestStream listed = app.open(mergedBeginEx(historical, KafkaMergedCapabilities.FETCH_ONLY, Map.of(),
            List.of(), KafkaAckMode.IN_SYNC_REPLICAS));
        final TestStream other = app.open(mergedBeginEx(unlisted, KafkaMergedCapabilities.FETCH_ONLY, Map.of(),
            List.of(), KafkaAckMode.IN_SYNC_REPLICAS));
        listed.await(WAIT, () -> records(listed).size() >= 3);
        other.await(WAIT, () -> KafkaClientStreams.indexes(other, "BEGIN").size() > 0);
        // latest is resolved once the cache's first fetch has answered, shortly after the reply began (as with kind
        // client, whose ListOffsets follows the reply Begin): a record written in between could come or not
        Thread.sleep(1_000);
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            sendAll(producer, keyed(unlisted, "late", 1));
        }
        other.await(WAIT, () -> records(other).size() >= 1);
        assertEquals(List.of("h-0", "h-1", "h-2"), records(listed).stream().map(Merged::key).toList());
        assertEquals(List.of("late-0"), records(other).stream().map(Merged::key).toList());
    }

    @Test
    void shouldKeepTheLatestRecordPerKeyOfACompactedTopic(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.name() + "-compacted";
        try (Admin admin = kafka.admin())
        {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                .all().get(20, TimeUnit.SECONDS);
            awaitTopic(admin, topic, true);
        }
        // segments of 4 KiB: some 25 records each, so that the cache rolls and compacts many times
        engine.property(KafkaBinding.CACHE_SEGMENT_BYTES, 4096).property(KafkaBinding.CACHE_SEGMENT_INDEX_BYTES, 4096);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("cache.yaml");
        final TestClient app = TestBinding.client("app", 0);
        final TestStream live = app.open(beginEx(topic));

        // ten keys written 60 times over, then key 3 deleted (a tombstone) and key 0 written once more
        final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int round = 0; round < 60; round++)
        {
            for (int key = 0; key < 10; key++)
            {
                records.add(new ProducerRecord<>(topic, 0, ("key-" + key).getBytes(UTF_8),
                    ("value-" + key + "-" + round).getBytes(UTF_8)));
            }
        }
        records.add(new ProducerRecord<>(topic, 0, "key-3".getBytes(UTF_8), null));
        records.add(new ProducerRecord<>(topic, 0, "key-0".getBytes(UTF_8), "value-0-last".getBytes(UTF_8)));
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            sendAll(producer, records);
        }
        // a subscriber that follows may miss records superseded while it was behind (as a KafkaConsumer of a compacted
        // topic may), never the latest of a key
        live.await(WAIT, () -> !records(live).isEmpty() && records(live).get(records(live).size() - 1).offset() == 601);

        // a subscriber from the start once all is cached: what the cache kept, the latest of each key among it
        final TestStream late = app.open(beginEx(topic));
        late.await(WAIT, () -> !records(late).isEmpty() && records(late).get(records(late).size() - 1).offset() == 601);
        final List<Merged> kept = records(late);
        final List<Integer> lengths = dataLengths(late);
        final Map<String, Integer> latest = new java.util.HashMap<>();
        for (int i = 0; i < kept.size(); i++)
        {
            latest.put(kept.get(i).key(), i);
        }
        assertEquals(10, latest.size(), "every key");
        assertEquals(-1, lengths.get(latest.get("key-3")), "the tombstone, a null value");
        assertEquals(601L, kept.get(latest.get("key-0")).offset());
        assertEquals(599L, kept.get(latest.get("key-9")).offset(), "key 9's last value");
        System.out.println("compacted: " + kept.size() + " of " + records.size());
        assertTrue(kept.size() < records.size() / 4, "superseded records compacted away: " + kept.size() + " kept of "
            + records.size());
        for (int i = 1; i < kept.size(); i++)
        {
            assertTrue(kept.get(i).offset() > kept.get(i - 1).offset(), "offsets in order");
        }
    }

    // the payload length of each Data that begins a record, -1 for a null value
    private static List<Integer> dataLengths(TestStream stream)
    {
        final List<Integer> lengths = new ArrayList<>();
        final List<Integer> all = stream.payloadLengths();
        final List<byte[]> extensions = stream.extensions();
        for (int index : KafkaClientStreams.indexes(stream, "DATA"))
        {
            if (extensions.get(index).length > 0)
            {
                lengths.add(all.get(index));
            }
        }
        return lengths;
    }

    @AfterEach
    void printEvents()
    {
        engine.events().forEach(e -> System.out.println("event: " + e));
    }

    private static List<ProducerRecord<byte[], byte[]>> keyed(String topic, String prefix, int count)
    {
        final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            records.add(new ProducerRecord<>(topic, 0, (prefix + "-" + i).getBytes(UTF_8), new byte[8]));
        }
        return records;
    }

    private static void awaitTopic(Admin admin, String topic, boolean listed) throws Exception
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        while (admin.listTopics().names().get(20, TimeUnit.SECONDS).contains(topic) != listed)
        {
            assertTrue(System.nanoTime() < deadline, "topic " + topic + (listed ? " not listed" : " still listed"));
            Thread.sleep(100);
        }
    }

    private static byte[] beginEx(String topic)
    {
        return mergedBeginEx(topic, KafkaMergedCapabilities.FETCH_ONLY, Map.of(DEFAULT_PARTITION, EARLIEST), List.of(),
            KafkaAckMode.IN_SYNC_REPLICAS);
    }

    // every partition's offsets 0 to perPartition - 1, each once and in order, with the key written there
    private static void assertInOrder(List<Merged> records, int perPartition)
    {
        final long[] next = new long[PARTITIONS];
        for (Merged record : records)
        {
            assertEquals(next[record.partition()]++, record.offset(), () -> "partition " + record.partition());
            assertEquals("key-" + record.partition() + "-" + record.offset(), record.key());
        }
        for (int p = 0; p < PARTITIONS; p++)
        {
            assertEquals(perPartition, next[p], "records of partition " + p);
        }
    }

    // all sent before any is awaited: one at a time, each would wait out the producer's linger
    static void sendAll(KafkaProducer<byte[], byte[]> producer, List<ProducerRecord<byte[], byte[]>> records)
        throws Exception
    {
        final List<Future<RecordMetadata>> sent = new ArrayList<>();
        for (ProducerRecord<byte[], byte[]> record : records)
        {
            sent.add(producer.send(record));
        }
        producer.flush();
        for (Future<RecordMetadata> result : sent)
        {
            result.get(20, TimeUnit.SECONDS);
        }
    }

    private static void produce(EmbeddedKafka kafka, String topic, int from, int to) throws Exception
    {
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
            for (int p = 0; p < PARTITIONS; p++)
            {
                for (int i = from; i < to; i++)
                {
                    records.add(new ProducerRecord<>(topic, p, ("key-" + p + "-" + i).getBytes(UTF_8),
                        ("value-" + p + "-" + i).getBytes(UTF_8)));
                }
            }
            sendAll(producer, records);
        }
    }
}
