/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.replyBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.DEFAULT_PARTITION;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.lastProgress;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedBeginEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.mergedProduceDataEx;
import static io.zilla.bindings.kafka.test.KafkaMergedStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.test.KafkaFetchStreams.Condition;
import io.zilla.bindings.kafka.test.KafkaMergedStreams.Merged;
import io.zilla.bindings.kafka.test.KafkaProduceStreams;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import io.zilla.specs.kafka.types.stream.KafkaMergedCapabilities;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.utils.Utils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * MERGED streams from the test binding through the kafka client to the shared real broker: records produced by
 * KafkaProducer fetched over all partitions, records produced through the merged stream read back by KafkaConsumer.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientMergedTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int WHOLE = 0x03;
    private static final long BASE_TIME = 1_700_000_000_000L;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientMergedTest.class);

    @Test
    void shouldFetchEveryRecordOfEveryPartitionFromEarliest(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        final Map<Integer, List<ProducerRecord<byte[], byte[]>>> produced = produce(kafka, topic, 8, 10);
        final TestClient app = start(kafka);

        final TestStream stream = app.open(fetchBeginEx(topic, Map.of(DEFAULT_PARTITION, EARLIEST), List.of()));
        stream.await(WAIT, () -> records(stream).size() >= 80);
        Thread.sleep(300);

        assertEquals(KafkaCapability.MERGED, replyBeginEx(stream).kind());
        assertEquals(topic, replyBeginEx(stream).merged().topic().asString());
        final List<Merged> fetched = records(stream);
        assertRecords(produced, fetched, stream.received());
        assertEquals(80, fetched.size(), "each record exactly once");
        final Set<String> seen = new HashSet<>();
        for (Merged record : fetched)
        {
            assertTrue(seen.add(record.partition() + "/" + record.offset()), "duplicate " + record);
            assertEquals(record.offset() + 1, record.progress().get(record.partition()), "progress after the record");
            assertEquals(8, record.progress().size(), "progress of every partition");
        }
        app.end(stream);
        stream.await(WAIT, stream::ended);
    }

    @Test
    void shouldFetchOnlyTheRecordsTheFiltersPass(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        final Map<Integer, List<ProducerRecord<byte[], byte[]>>> produced = produce(kafka, topic, 8, 12);
        final TestClient app = start(kafka);

        // two keys, OR-ed
        assertFiltered(app, topic, produced, List.of(List.of(Condition.key("key-1-1")), List.of(Condition.key("key-6-7"))),
            Set.of("1/1", "6/7"));
        // a header: records 1 and 7 of each partition have h0=v1 and h0=v7
        assertFiltered(app, topic, produced, List.of(List.of(Condition.header("h0", "v7"))),
            Set.of("0/7", "1/7", "2/7", "3/7", "4/7", "5/7", "6/7", "7/7"));
        // (key and header) or (key and header): only the first AND holds for a record (record 3 has no headers)
        assertFiltered(app, topic, produced, List.of(
            List.of(Condition.key("key-2-7"), Condition.header("h0", "v7")),
            List.of(Condition.key("key-5-3"), Condition.header("h0", "v3"))),
            Set.of("2/7"));
    }

    @Test
    void shouldResumeExactlyAfterTheLastProgress(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        final Map<Integer, List<ProducerRecord<byte[], byte[]>>> produced = produce(kafka, topic, 8, 300);
        final TestClient app = start(kafka);

        // a small window, so that the stream is still reading when it ends
        final TestStream first = app.open(fetchBeginEx(topic, Map.of(DEFAULT_PARTITION, EARLIEST), List.of()), 1024);
        first.await(WAIT, () -> records(first).size() >= 100);
        app.end(first);
        first.await(WAIT, first::ended);
        final List<Merged> before = records(first);
        final Map<Integer, Long> progress = lastProgress(first);
        assertEquals(8, progress.size());

        // more records once it ended: the next stream gets them too
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            for (int p = 0; p < 8; p++)
            {
                for (int i = 300; i < 305; i++)
                {
                    final ProducerRecord<byte[], byte[]> record = KafkaClientFetchTest.record(topic, p, i);
                    producer.send(record).get();
                    produced.get(p).add(record);
                }
            }
        }
        final Map<Integer, Long> resume = new HashMap<>(progress);
        final TestStream second = app.open(fetchBeginEx(topic, resume, List.of()));
        final int expectedRest = 8 * 305 - before.size();
        try
        {
            second.await(WAIT, () -> records(second).size() >= expectedRest);
        }
        catch (AssertionError ex)
        {
            final Map<Integer, Integer> counts = new TreeMap<>();
            records(second).forEach(r -> counts.merge(r.partition(), 1, Integer::sum));
            System.out.println("resume " + resume + " got " + counts + " last " + lastProgress(second)
                + " frames " + second.frames().size() + " before " + before.size());
            throw ex;
        }
        Thread.sleep(300);
        final List<Merged> after = records(second);
        assertEquals(expectedRest, after.size(), "the rest, once: " + before.size() + " records before the end");

        for (int p = 0; p < 8; p++)
        {
            final List<Long> offsets = new ArrayList<>();
            for (Merged record : before)
            {
                if (record.partition() == p)
                {
                    offsets.add(record.offset());
                }
            }
            // a partition nothing was read from may still say earliest (-2): where its fetch began was not known yet
            final long next = progress.get(p) == EARLIEST && offsets.isEmpty() ? 0L : progress.get(p);
            assertEquals((long) offsets.size(), next, "partition " + p + ": the progress is past what was read");
            for (Merged record : after)
            {
                if (record.partition() == p)
                {
                    offsets.add(record.offset());
                }
            }
            final List<Long> expected = new ArrayList<>();
            for (long offset = 0; offset < 305; offset++)
            {
                expected.add(offset);
            }
            assertEquals(expected, offsets, "partition " + p + ": no gap, no duplicate");
        }
        assertRecords(produced, after, second.received());
    }

    @Test
    void shouldSlowTheAppDownWhenKeysAndHeadersOutweighValues(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        // values of about 10 bytes with 13 headers of 96 bytes: MERGED forwards a record only within its partition
        // stream's credit, whose padding follows the keys and headers, and holds the app's records meanwhile
        final int count = 10_000;
        final String topic = topics.create(8);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_ONLY, Map.of(), List.of(),
            KafkaAckMode.IN_SYNC_REPLICAS));
        for (int i = 0; i < count; i++)
        {
            app.send(stream, value(i), mergedProduceDataEx(0, BASE_TIME + i, -1, key(i), manyHeaders(i)), WHOLE);
        }
        stream.await(WAIT, () -> stream.reset() || stream.waiting() == 0 && stream.acknowledged() == stream.sequence());
        assertFalse(stream.reset(), () -> "reset, events " + engine.events());
        assertEquals((long) count, endOffsets(kafka, topic, 8));
        app.end(stream);
        stream.await(WAIT, stream::ended);
    }

    private static List<KafkaProduceStreams.Header> manyHeaders(int i)
    {
        final List<KafkaProduceStreams.Header> headers = new ArrayList<>();
        for (int h = 0; h < 13; h++)
        {
            headers.add(new KafkaProduceStreams.Header("h" + h, String.format("trace-%090d", i).getBytes(UTF_8)));
        }
        return headers;
    }

    @Test
    void shouldProduceByKeyAsKafkaClientsDo(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_ONLY, Map.of(), List.of(),
            KafkaAckMode.IN_SYNC_REPLICAS));
        for (int i = 0; i < 1000; i++)
        {
            app.send(stream, value(i), mergedProduceDataEx(0, BASE_TIME + i, -1, key(i), headers(i)), WHOLE);
        }
        stream.await(WAIT, () -> stream.waiting() == 0 && stream.acknowledged() == stream.sequence());
        // acks all: what the stream acknowledged is in the log
        assertEquals(1000L, endOffsets(kafka, topic, 8));

        final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, topic, 8, 1000);
        assertEquals(1000, consumed.size());
        final Map<Integer, Integer> nullKeyed = new TreeMap<>();
        final List<Integer> nullKeyPartitions = new ArrayList<>();
        for (ConsumerRecord<byte[], byte[]> record : consumed)
        {
            final String value = new String(record.value(), UTF_8);
            final int i = Integer.parseInt(value.substring("value-".length()));
            assertArrayEquals(key(i), record.key(), "key of " + i);
            assertEquals(BASE_TIME + i, record.timestamp(), "timestamp of " + i);
            assertEquals(headerTexts(headers(i)), headerTexts(record), "headers of " + i);
            if (record.key() != null)
            {
                assertEquals(Utils.toPositive(Utils.murmur2(record.key())) % 8, record.partition(), "partition of " + i);
            }
            else
            {
                nullKeyed.put(i, record.partition());
            }
        }
        // a null key goes round robin, in the order the records came
        nullKeyPartitions.addAll(nullKeyed.values());
        for (int n = 0; n < nullKeyPartitions.size(); n++)
        {
            assertEquals(n % 8, nullKeyPartitions.get(n), "null-keyed record " + n);
        }
        assertEquals(100, nullKeyPartitions.size());

        app.end(stream);
        stream.await(WAIT, stream::ended);
    }

    @Test
    void shouldFetchBackWhatItProduces(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(4);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_AND_FETCH,
            Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaAckMode.LEADER_ONLY));
        for (int i = 0; i < 200; i++)
        {
            app.send(stream, value(i), mergedProduceDataEx(0, BASE_TIME + i, -1, key(i), headers(i)), WHOLE);
        }
        stream.await(WAIT, () -> records(stream).size() >= 200);
        Thread.sleep(300);

        final List<Merged> fetched = records(stream);
        assertEquals(200, fetched.size());
        final Map<Integer, Long> next = new HashMap<>();
        final ByteArrayOutputStream values = new ByteArrayOutputStream();
        final Set<Integer> seen = new HashSet<>();
        for (Merged record : fetched)
        {
            final int i = Integer.parseInt(record.headers().get(0).substring("n=v".length()));
            assertTrue(seen.add(i), "record " + i + " once");
            assertEquals(text(key(i)), record.key(), "key of " + i);
            assertEquals(BASE_TIME + i, record.timestamp(), "timestamp of " + i);
            assertEquals(headerTexts(headers(i)), record.headers(), "headers of " + i);
            if (key(i) != null)
            {
                assertEquals(Utils.toPositive(Utils.murmur2(key(i))) % 4, record.partition(), "partition of " + i);
            }
            final long expected = next.getOrDefault(record.partition(), 0L);
            assertEquals(expected, record.offset(), "offsets of a partition in order");
            next.put(record.partition(), expected + 1);
            values.writeBytes(value(i));
        }
        assertArrayEquals(values.toByteArray(), stream.received(), "values, in the order of the records");
        stream.await(WAIT, () -> stream.acknowledged() == stream.sequence());
        app.end(stream);
        stream.await(WAIT, stream::ended);
    }

    @Test
    void shouldProduceAndFetchBackARecordInFragments(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(4);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_AND_FETCH,
            Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaAckMode.IN_SYNC_REPLICAS));
        // a record in fragments has to fit the window whole, as for a PRODUCE stream (about 31 KiB)
        final byte[] value = new byte[24 * 1024];
        for (int b = 0; b < value.length; b++)
        {
            value[b] = (byte) ('a' + b % 23);
        }
        final byte[] key = "large".getBytes(UTF_8);
        final byte[] first = Arrays.copyOfRange(value, 0, 16 * 1024);
        final byte[] last = Arrays.copyOfRange(value, 16 * 1024, value.length);
        app.send(stream, value(0), mergedProduceDataEx(0, BASE_TIME, -1, key(0), headers(0)), WHOLE);
        app.send(stream, first, mergedProduceDataEx(last.length, BASE_TIME + 1, -1, key, headers(1)), 0x02);
        app.send(stream, last, null, 0x01);
        app.send(stream, value(2), mergedProduceDataEx(0, BASE_TIME + 2, -1, key(2), headers(2)), WHOLE);
        stream.await(WAIT, () -> records(stream).size() >= 3 && stream.received().length >= value.length + 14);
        stream.await(WAIT, () -> stream.acknowledged() == stream.sequence());

        final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, topic, 4, 3);
        assertEquals(3, consumed.size());
        final ConsumerRecord<byte[], byte[]> large = consumed.stream().filter(r -> r.value().length == value.length)
            .findFirst().orElseThrow();
        assertArrayEquals(value, large.value(), "the record put together from its fragments");
        assertEquals(Utils.toPositive(Utils.murmur2(key)) % 4, large.partition());

        final Merged fetched = records(stream).stream().filter(r -> "large".equals(r.key())).findFirst().orElseThrow();
        assertEquals(large.partition(), fetched.partition());
        final ByteArrayOutputStream values = new ByteArrayOutputStream();
        for (Merged record : records(stream))
        {
            values.writeBytes("large".equals(record.key()) ? value : value(Integer.parseInt(record.key().substring(4))));
        }
        assertArrayEquals(values.toByteArray(), stream.received(), "values, whole and in order");
        app.end(stream);
        stream.await(WAIT, stream::ended);
    }

    @Test
    void shouldProduceARecordLargerThanTheWindowInFragments(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(2);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_ONLY,
            Map.of(), List.of(), KafkaAckMode.IN_SYNC_REPLICAS));
        final byte[] value = new byte[700 * 1024];
        for (int b = 0; b < value.length; b++)
        {
            value[b] = (byte) ('a' + b % 19);
        }
        app.send(stream, value(0), mergedProduceDataEx(0, BASE_TIME, -1, key(0), headers(0)), WHOLE);
        final int fragment = 8 * 1024;
        for (int at = 0; at < value.length; at += fragment)
        {
            final int end = Math.min(value.length, at + fragment);
            final int flags = (at == 0 ? 0x02 : 0) | (end == value.length ? 0x01 : 0);
            app.send(stream, Arrays.copyOfRange(value, at, end), at == 0
                ? mergedProduceDataEx(0, BASE_TIME + 1, -1, "large".getBytes(UTF_8), headers(1)) : null, flags);
        }
        app.send(stream, value(2), mergedProduceDataEx(0, BASE_TIME + 2, -1, key(2), headers(2)), WHOLE);
        stream.await(WAIT, () -> stream.reset() || stream.waiting() == 0 && stream.acknowledged() == stream.sequence());
        assertFalse(stream.reset(), stream.frames().toString());
        assertTrue(stream.maximum() < value.length, "the window stays small: " + stream.maximum());

        final List<ConsumerRecord<byte[], byte[]>> consumed = KafkaClientProduceTest.consume(kafka, topic, 2, 3);
        assertEquals(3, consumed.size());
        final ConsumerRecord<byte[], byte[]> large = consumed.stream().filter(r -> r.value().length == value.length)
            .findFirst().orElseThrow();
        assertArrayEquals(value, large.value(), "the record put together from its fragments");
        app.end(stream);
        stream.await(WAIT, stream::ended);
    }

    @Test
    void shouldCloseEveryInternalStreamWithTheMergedOne(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_AND_FETCH,
            Map.of(DEFAULT_PARTITION, EARLIEST), List.of(), KafkaAckMode.IN_SYNC_REPLICAS));
        for (int i = 0; i < 40; i++)
        {
            app.send(stream, value(i), mergedProduceDataEx(0, BASE_TIME + i, -1, key(i), headers(i)), WHOLE);
        }
        stream.await(WAIT, () -> records(stream).size() >= 40 && stream.acknowledged() == stream.sequence());
        // a meta stream, 8 fetch streams and 8 produce streams, each counted by the binding as opener and acceptor
        final long opened = counter(engine.directory(), "kafka_client", "streams.opened");
        assertTrue(opened >= 1 + 2 * 17, "streams opened: " + opened);

        app.abort(stream);
        app.reset(stream);
        // what stays open is the broker connections only
        stream.await(WAIT, () -> counter(engine.directory(), "kafka_client", "streams.opened")
            - counter(engine.directory(), "kafka_client", "streams.closed")
            == counter(engine.directory(), "kafka_client", "connections.opened"));
    }

    @Test
    void shouldKeepFragmentsContiguousInASmallWindow(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        final Map<Integer, List<ProducerRecord<byte[], byte[]>>> produced = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            for (int p = 0; p < 8; p++)
            {
                final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
                for (int i = 0; i < 12; i++)
                {
                    // large values of distinct bytes in every partition, so that fragmented records overlap in time
                    final byte[] value = new byte[i % 4 == 3 ? 40 * 1024 + p * 100 : 300 + i];
                    for (int b = 0; b < value.length; b++)
                    {
                        value[b] = (byte) ('a' + (p * 7 + i * 3 + b / 97) % 26);
                    }
                    records.add(new ProducerRecord<>(topic, p, BASE_TIME + i, ("key-" + p + "-" + i).getBytes(UTF_8), value));
                }
                KafkaClientFetchTest.send(producer, records);
                produced.put(p, records);
            }
        }
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, Map.of(DEFAULT_PARTITION, EARLIEST), List.of()), 1024);
        final int total = produced.values().stream().mapToInt(r -> r.stream().mapToInt(x -> x.value().length).sum()).sum();
        stream.await(WAIT, () -> stream.reset() || records(stream).size() >= 96 && stream.received().length >= total);
        assertFalse(stream.reset(), () -> "reset with error " + resetError(stream) + " after " + records(stream).size());
        Thread.sleep(300);

        final List<Merged> fetched = records(stream);
        assertEquals(96, fetched.size());
        assertTrue(fetched.stream().anyMatch(r -> r.deferred() > 0), "values larger than the window come in fragments");
        // the values, concatenated in the order the records began, are the bytes received: no fragment of another
        // record came in between
        assertRecords(produced, fetched, stream.received());
    }

    @Test
    void shouldFetchFromPartitionsAddedWhileItReads(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(2);
        produce(kafka, topic, 2, 3);
        engine.property(KafkaBinding.CLIENT_METADATA_MAX_AGE, 500);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, Map.of(DEFAULT_PARTITION, EARLIEST), List.of()));
        stream.await(WAIT, () -> records(stream).size() >= 6);

        try (Admin admin = kafka.admin())
        {
            admin.createPartitions(Map.of(topic, NewPartitions.increaseTo(4))).all().get(20, TimeUnit.SECONDS);
        }
        // written before the stream hears of the partitions: read from their start all the same
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            KafkaClientFetchTest.send(producer, List.of(KafkaClientFetchTest.record(topic, 2, 0),
                KafkaClientFetchTest.record(topic, 3, 0), KafkaClientFetchTest.record(topic, 3, 1)));
        }
        stream.await(WAIT, () -> records(stream).size() >= 9);
        final List<Merged> fetched = records(stream);
        assertEquals(9, fetched.size());
        assertEquals(List.of(2, 3, 3), fetched.subList(6, 9).stream().map(Merged::partition).sorted().toList());
        assertEquals(4, fetched.get(8).progress().size(), "progress of the four partitions");
    }

    @Test
    void shouldResetAnUnknownTopic(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topics.name() + "-missing", Map.of(), List.of()));
        stream.await(WAIT, stream::reset);
        assertEquals((short) 3, resetError(stream));
    }

    @Test
    void shouldResetAFrameLargerThanABatch(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        // the window holds the batches of 8 partitions x 5 in flight, a frame at most one batch (about 31 KiB): no
        // partition's window could ever take a larger one, it would wait for good
        final String topic = topics.create(8);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(mergedBeginEx(topic, KafkaMergedCapabilities.PRODUCE_ONLY, Map.of(), List.of(),
            KafkaAckMode.IN_SYNC_REPLICAS));
        app.send(stream, new byte[40 * 1024], mergedProduceDataEx(0, 0L, -1, null, List.of()), WHOLE);
        stream.await(WAIT, stream::reset);
        assertEquals((short) 10, resetError(stream), "MESSAGE_TOO_LARGE");
    }

    @Test
    void shouldResetWithThePartitionsError(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(2);
        produce(kafka, topic, 2, 3);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, Map.of(0, EARLIEST, 1, 1000L), List.of()));
        stream.await(WAIT, stream::reset);
        assertEquals((short) 1, resetError(stream), "OFFSET_OUT_OF_RANGE");
        assertFalse(stream.ended());
    }

    private void assertFiltered(TestClient app, String topic, Map<Integer, List<ProducerRecord<byte[], byte[]>>> produced,
        List<List<Condition>> filters, Set<String> expected)
    {
        final TestStream stream = app.open(fetchBeginEx(topic, Map.of(DEFAULT_PARTITION, EARLIEST), filters));
        final int count = produced.get(0).size();
        // done once every partition's progress reached its end
        stream.await(WAIT, () ->
        {
            assertFalse(stream.reset(), () -> "reset with error " + resetError(stream));
            final Map<Integer, Long> progress = lastProgress(stream);
            return progress.size() == 8 && progress.values().stream().allMatch(o -> o == count);
        });
        final List<Merged> fetched = records(stream);
        final Set<String> got = new HashSet<>();
        for (Merged record : fetched)
        {
            got.add(record.partition() + "/" + record.offset());
        }
        assertEquals(expected, got, "filters " + filters);
        assertEquals(expected.size(), fetched.size(), "each once");
        assertRecords(produced, fetched, stream.received());
        app.end(stream);
        stream.await(WAIT, stream::ended);
    }

    // each record as produced (key, headers, timestamp), and the values, concatenated in the order the records came
    private static void assertRecords(Map<Integer, List<ProducerRecord<byte[], byte[]>>> produced, List<Merged> fetched,
        byte[] received)
    {
        final ByteArrayOutputStream values = new ByteArrayOutputStream();
        final Map<Integer, Long> last = new HashMap<>();
        for (Merged record : fetched)
        {
            final ProducerRecord<byte[], byte[]> expected = produced.get(record.partition()).get((int) record.offset());
            assertEquals(text(expected.key()), record.key(), "key of " + record);
            assertEquals(expected.timestamp().longValue(), record.timestamp(), "timestamp of " + record);
            final List<String> headers = new ArrayList<>();
            for (Header header : expected.headers())
            {
                headers.add(header.key() + "=" + text(header.value()));
            }
            assertEquals(headers, record.headers(), "headers of " + record);
            assertTrue(record.offset() > last.getOrDefault(record.partition(), -1L), "in order within partition");
            last.put(record.partition(), record.offset());
            if (expected.value() != null)
            {
                values.writeBytes(expected.value());
            }
        }
        assertArrayEquals(values.toByteArray(), received, "values");
    }

    static Map<Integer, List<ProducerRecord<byte[], byte[]>>> produce(EmbeddedKafka kafka, String topic,
        int partitions, int count) throws Exception
    {
        final Map<Integer, List<ProducerRecord<byte[], byte[]>>> produced = new HashMap<>();
        try (KafkaProducer<byte[], byte[]> producer = KafkaClientFetchTest.producer(kafka, "none", null))
        {
            for (int p = 0; p < partitions; p++)
            {
                final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
                for (int i = 0; i < count; i++)
                {
                    final ProducerRecord<byte[], byte[]> record = KafkaClientFetchTest.record(topic, p, i);
                    producer.send(record);
                    records.add(record);
                }
                produced.put(p, records);
            }
            producer.flush();
        }
        return produced;
    }

    static byte[] fetchBeginEx(String topic, Map<Integer, Long> partitions, List<List<Condition>> filters)
    {
        return mergedBeginEx(topic, KafkaMergedCapabilities.FETCH_ONLY, partitions, filters, KafkaAckMode.IN_SYNC_REPLICAS);
    }

    // one record in ten has a null key
    private static byte[] key(int i)
    {
        return i % 10 == 9 ? null : ("key-" + i).getBytes(UTF_8);
    }

    private static byte[] value(int i)
    {
        return ("value-" + i).getBytes(UTF_8);
    }

    private static List<KafkaProduceStreams.Header> headers(int i)
    {
        final List<KafkaProduceStreams.Header> headers = new ArrayList<>();
        headers.add(new KafkaProduceStreams.Header("n", ("v" + i).getBytes(UTF_8)));
        if (i % 3 == 0)
        {
            headers.add(new KafkaProduceStreams.Header("empty", null));
        }
        return headers;
    }

    private static List<String> headerTexts(List<KafkaProduceStreams.Header> headers)
    {
        return headers.stream().map(h -> h.name() + "=" + text(h.value())).toList();
    }

    private static List<String> headerTexts(ConsumerRecord<byte[], byte[]> record)
    {
        final List<String> texts = new ArrayList<>();
        for (Header header : record.headers())
        {
            texts.add(header.key() + "=" + text(header.value()));
        }
        return texts;
    }

    private static String text(byte[] bytes)
    {
        return bytes != null ? new String(bytes, UTF_8) : null;
    }

    private static long endOffsets(EmbeddedKafka kafka, String topic, int partitions)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config))
        {
            final List<TopicPartition> assigned = new ArrayList<>();
            for (int p = 0; p < partitions; p++)
            {
                assigned.add(new TopicPartition(topic, p));
            }
            final Map<TopicPartition, Long> ends = consumer.endOffsets(assigned);
            assertNotNull(ends);
            return ends.values().stream().mapToLong(Long::longValue).sum();
        }
    }

    @AfterEach
    void printEvents()
    {
        // the engine's events, for a failure's diagnosis
        engine.events().forEach(e -> System.out.println("event: " + e));
    }

    /** The zilla.yaml under test: kind client here, the cache kinds in {@link KafkaCacheMergedTest}. */
    String config()
    {
        return "client.yaml";
    }

    private TestClient start(EmbeddedKafka kafka)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start(config());
        return TestBinding.client("app");
    }
}
