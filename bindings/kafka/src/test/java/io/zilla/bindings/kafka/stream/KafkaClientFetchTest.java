/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.replyBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.LATEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.dataFrames;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.fetchBeginEx;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.lastFlushOffset;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntPredicate;
import java.util.stream.Stream;

import io.zilla.bindings.kafka.test.KafkaFetchStreams;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaBeginExFW;
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * FETCH streams from the test binding through the kafka client to the shared real broker, of records produced by
 * KafkaProducer.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientFetchTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final long BASE_TIME = 1_700_000_000_000L;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientFetchTest.class);

    @Test
    void shouldFetchEveryPartitionFromEarliest(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        final List<List<ProducerRecord<byte[], byte[]>>> produced = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", null))
        {
            for (int partition = 0; partition < 8; partition++)
            {
                final List<ProducerRecord<byte[], byte[]>> records = new ArrayList<>();
                for (int i = 0; i < 6; i++)
                {
                    records.add(record(topic, partition, i));
                }
                send(producer, records);
                produced.add(records);
            }
        }
        final TestClient app = start(kafka);

        // all at once: their Fetches are one request to the broker
        final List<TestStream> streams = new ArrayList<>();
        for (int partition = 0; partition < 8; partition++)
        {
            streams.add(app.open(fetchBeginEx(topic, partition, EARLIEST)));
        }
        for (int partition = 0; partition < 8; partition++)
        {
            final int expected = produced.get(partition).size();
            final TestStream stream = streams.get(partition);
            stream.await(WAIT, () -> records(stream).size() >= expected);

            final KafkaBeginExFW beginEx = replyBeginEx(stream);
            assertEquals(KafkaCapability.FETCH, beginEx.kind());
            assertEquals(topic, beginEx.fetch().topic().asString());
            assertEquals(partition, beginEx.fetch().partition().partitionId());
            assertEquals(0L, beginEx.fetch().partition().partitionOffset(), "earliest resolved");
            assertRecords(produced.get(partition), 0L, stream);
            app.end(stream);
            stream.await(WAIT, stream::ended);
        }
        // bootstrap (metadata), the leader's control connection (ListOffsets) and its fetch connection
        assertEquals(3, counter(engine.directory(), "kafka_client", "connections.opened"));
    }

    @Test
    void shouldFetchOnlyNewerRecordsFromLatest(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", null))
        {
            send(producer, List.of(record(topic, 0, 0), record(topic, 0, 1), record(topic, 0, 2)));
            final TestClient app = start(kafka);
            final TestStream stream = app.open(fetchBeginEx(topic, 0, LATEST));
            stream.await(WAIT, () -> replyBeginEx(stream) != null);
            assertEquals(3L, replyBeginEx(stream).fetch().partition().partitionOffset(), "latest resolved");

            final List<ProducerRecord<byte[], byte[]>> newer = List.of(record(topic, 0, 3), record(topic, 0, 4));
            send(producer, newer);
            stream.await(WAIT, () -> records(stream).size() >= 2);
            assertRecords(newer, 3L, stream);
        }
    }

    @Test
    void shouldFetchFromTheGivenOffset(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        final List<ProducerRecord<byte[], byte[]>> produced = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            produced.add(record(topic, 0, i));
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", null))
        {
            send(producer, produced);
        }
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, 4L));
        stream.await(WAIT, () -> records(stream).size() >= 6);
        Thread.sleep(600);

        assertEquals(4L, replyBeginEx(stream).fetch().partition().partitionOffset());
        assertRecords(produced.subList(4, 10), 4L, stream);
    }

    @ParameterizedTest
    @ValueSource(strings = {"gzip", "snappy", "lz4", "zstd"})
    void shouldReadEachCompressionBack(String compression, EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        // the invocations share a topic prefix: the codec names each one
        final String topic = topics.name() + "-" + compression;
        kafka.createTopic(topic, 1);
        final List<ProducerRecord<byte[], byte[]>> produced = new ArrayList<>();
        for (int i = 0; i < 200; i++)
        {
            produced.add(record(topic, 0, i));
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, compression, null))
        {
            // sent together, so that batches of many records are compressed
            final List<Future<RecordMetadata>> sent = new ArrayList<>();
            for (ProducerRecord<byte[], byte[]> record : produced)
            {
                sent.add(producer.send(record));
            }
            for (Future<RecordMetadata> future : sent)
            {
                future.get(20, TimeUnit.SECONDS);
            }
        }
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST));
        stream.await(WAIT, () -> records(stream).size() >= produced.size());
        assertRecords(produced, 0L, stream);
    }

    @Test
    void shouldDropAbortedRecordsUnderReadCommitted(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        produceCommittedAndAborted(kafka, topic);
        final TestClient app = start(kafka);
        final TestStream committed = app.open(fetchBeginEx(topic, 0, EARLIEST, true, List.of()));
        final TestStream uncommitted = app.open(fetchBeginEx(topic, 0, EARLIEST, false, List.of()));
        committed.await(WAIT, () -> lastFlushOffset(committed) == 8L);
        uncommitted.await(WAIT, () -> lastFlushOffset(uncommitted) == 8L);

        assertEquals(List.of("committed-1", "committed-2", "committed-3"), keys(records(committed)));
        assertEquals(List.of(0L, 1L, 6L), offsets(records(committed)));
        assertEquals("abe", new String(committed.received(), UTF_8));
        assertEquals(List.of("committed-1", "committed-2", "aborted-1", "aborted-2", "committed-3"),
            keys(records(uncommitted)));
        assertEquals(List.of(0L, 1L, 3L, 4L, 6L), offsets(records(uncommitted)));
        assertTrue(records(committed).stream().allMatch(r -> r.producerId() >= 0), "the producer id is told");
    }

    @Test
    void shouldPassOnlyRecordsThatMatchTheFilters(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        final List<ProducerRecord<byte[], byte[]>> produced = new ArrayList<>();
        for (int i = 0; i < 300; i++)
        {
            final List<Header> headers = List.of(new RecordHeader("color", (i % 3 == 0 ? "red" : "blue").getBytes(UTF_8)),
                new RecordHeader("size", (i % 2 == 0 ? "even" : "odd").getBytes(UTF_8)));
            produced.add(new ProducerRecord<>(topic, 0, BASE_TIME + i, ("k" + i % 10).getBytes(UTF_8),
                ("v" + i).getBytes(UTF_8), headers));
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", null))
        {
            send(producer, produced);
        }
        final TestClient app = start(kafka);

        final TestStream byKey = app.open(fetchBeginEx(topic, 0, EARLIEST, false,
            List.of(List.of(KafkaFetchStreams.Condition.key("k3")))));
        final TestStream byHeader = app.open(fetchBeginEx(topic, 0, EARLIEST, false,
            List.of(List.of(KafkaFetchStreams.Condition.header("color", "red")))));
        // (k1 and odd) or (red and even)
        final TestStream either = app.open(fetchBeginEx(topic, 0, EARLIEST, false, List.of(
            List.of(KafkaFetchStreams.Condition.key("k1"), KafkaFetchStreams.Condition.header("size", "odd")),
            List.of(KafkaFetchStreams.Condition.header("color", "red"), KafkaFetchStreams.Condition.header("size", "even")))));
        for (TestStream stream : List.of(byKey, byHeader, either))
        {
            stream.await(WAIT, () -> lastFlushOffset(stream) == 300L);
        }

        assertEquals(expectedOffsets(300, i -> i % 10 == 3), offsets(records(byKey)));
        assertEquals(expectedOffsets(300, i -> i % 3 == 0), offsets(records(byHeader)));
        assertEquals(expectedOffsets(300, i -> i % 10 == 1 && i % 2 == 1 || i % 3 == 0 && i % 2 == 0),
            offsets(records(either)));
        assertEquals(concat(produced, i -> i % 10 == 3), new String(byKey.received(), UTF_8));
        assertTrue(records(byKey).stream().allMatch(r -> "k3".equals(r.key())));
    }

    @Test
    void shouldDeliverEveryRecordInOrderThroughASmallWindow(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        final List<ProducerRecord<byte[], byte[]>> produced = new ArrayList<>();
        final byte[] large = new byte[48 * 1024];
        for (int i = 0; i < large.length; i++)
        {
            large[i] = (byte) ('a' + i % 26);
        }
        for (int i = 0; i < 120; i++)
        {
            final byte[] value = i == 60 ? large : ("value-" + i + "-" + "x".repeat(i * 7)).getBytes(UTF_8);
            produced.add(new ProducerRecord<>(topic, 0, BASE_TIME + i, ("key-" + i).getBytes(UTF_8), value));
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", null))
        {
            send(producer, produced);
        }
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST), 1024);
        stream.await(WAIT, () -> records(stream).size() >= produced.size() && stream.received().length
            == expectedBytes(produced).length);

        assertArrayEquals(expectedBytes(produced), stream.received());
        assertEquals(expectedOffsets(120, i -> true), offsets(records(stream)));
        final KafkaFetchStreams.Fetched big = records(stream).get(60);
        assertTrue(big.deferred() >= 47 * 1024 && big.deferred() < 48 * 1024, "the large value comes in fragments of the"
            + " 1 KiB window: " + big.deferred() + " bytes deferred");
        assertTrue(dataFrames(stream) >= 120 + 47, "fragments: " + dataFrames(stream));
    }

    @Test
    void shouldResetAnOffsetOutOfRange(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", null))
        {
            send(producer, List.of(record(topic, 0, 0)));
        }
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, 1000L));
        stream.await(WAIT, stream::reset);
        assertEquals(Short.valueOf((short) 1), resetError(stream), "OFFSET_OUT_OF_RANGE");
    }

    @Test
    void shouldResetACorruptBatchWithAnEvent(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        produceACorruptLastBatch(kafka, topic);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST));
        stream.await(WAIT, stream::reset);

        assertEquals(Short.valueOf((short) 2), resetError(stream), "CORRUPT_MESSAGE");
        assertEquals(List.of(0L, 1L), offsets(records(stream)), "the records before the corrupt batch");
        assertTrue(stream.aborted(), "the reply is aborted");
        stream.await(WAIT, () -> engine.events().stream().anyMatch(e -> e.event().equals("kafka.fetch.corrupt")));
    }

    @Test
    void shouldResetAnUnknownPartition(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(2);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(fetchBeginEx(topic, 5, EARLIEST));
        stream.await(WAIT, stream::reset);
        assertEquals(Short.valueOf((short) 3), resetError(stream), "UNKNOWN_TOPIC_OR_PARTITION");
        assertFalse(stream.ended());
    }

    // offsets: 0, 1 committed ("committed-1" a, "committed-2" b), 2 marker, 3, 4 aborted ("aborted-1" c, "aborted-2"
    // d), 5 marker, 6 committed ("committed-3" e), 7 marker
    static void produceCommittedAndAborted(EmbeddedKafka kafka, String topic)
    {
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", "fetch-" + UUID.randomUUID()))
        {
            producer.initTransactions();
            producer.beginTransaction();
            producer.send(text(topic, "committed-1", "a"));
            producer.send(text(topic, "committed-2", "b"));
            producer.commitTransaction();
            producer.beginTransaction();
            producer.send(text(topic, "aborted-1", "c"));
            producer.send(text(topic, "aborted-2", "d"));
            producer.flush();
            producer.abortTransaction();
            producer.beginTransaction();
            producer.send(text(topic, "committed-3", "e"));
            producer.commitTransaction();
        }
    }

    // three records at offsets 0, 1, 2 of partition 0, one batch each, the last one corrupt
    static void produceACorruptLastBatch(EmbeddedKafka kafka, String topic) throws Exception
    {
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka, "none", null))
        {
            // one batch each
            send(producer, List.of(record(topic, 0, 0), record(topic, 0, 3), record(topic, 0, 2)));
        }
        // the broker serves its log as it is on disk: a byte flipped in the last batch breaks that batch's CRC
        final Path segment;
        try (Stream<Path> files = Files.walk(kafka.directory()))
        {
            segment = files.filter(f -> f.getParent().getFileName().toString().equals(topic + "-0")
                && f.getFileName().toString().endsWith(".log")).findFirst().orElseThrow();
        }
        try (RandomAccessFile file = new RandomAccessFile(segment.toFile(), "rw"))
        {
            final long last = file.length() - 1;
            file.seek(last);
            final int value = file.read();
            file.seek(last);
            file.write(value ^ 0xff);
        }
    }

    /** The zilla.yaml under test: kind client here, the cache kinds in {@link KafkaCacheFetchTest}. */
    String config()
    {
        return "client.yaml";
    }

    TestClient start(EmbeddedKafka kafka)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start(config());
        return TestBinding.client("app");
    }

    static KafkaProducer<byte[], byte[]> producer(EmbeddedKafka kafka, String compression, String transactionalId)
    {
        final Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        properties.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression);
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 20);
        if (transactionalId != null)
        {
            properties.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
        }
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    // keys, values (null and empty among them), headers (a null value among them) and timestamps that vary
    static ProducerRecord<byte[], byte[]> record(String topic, int partition, int i)
    {
        final byte[] key = i % 5 == 4 ? null : ("key-" + partition + "-" + i).getBytes(UTF_8);
        byte[] value = ("value-" + partition + "-" + i).getBytes(UTF_8);
        if (i % 4 == 1)
        {
            value = null;
        }
        else if (i % 4 == 2)
        {
            value = new byte[0];
        }
        final List<Header> headers = new ArrayList<>();
        for (int h = 0; h < i % 3; h++)
        {
            headers.add(new RecordHeader("h" + h, h == 1 ? null : ("v" + i).getBytes(UTF_8)));
        }
        return new ProducerRecord<>(topic, partition, BASE_TIME + partition * 1000L + i * 7L, key, value, headers);
    }

    static void send(KafkaProducer<byte[], byte[]> producer, List<ProducerRecord<byte[], byte[]>> records) throws Exception
    {
        for (ProducerRecord<byte[], byte[]> record : records)
        {
            producer.send(record).get(20, TimeUnit.SECONDS);
        }
    }

    private static ProducerRecord<byte[], byte[]> text(String topic, String key, String value)
    {
        return new ProducerRecord<>(topic, 0, key.getBytes(UTF_8), value.getBytes(UTF_8));
    }

    // each record's key, offset, timestamp and headers from its Data extension; the values, concatenated, as payload
    private static void assertRecords(List<ProducerRecord<byte[], byte[]>> expected, long firstOffset, TestStream stream)
    {
        final List<KafkaFetchStreams.Fetched> fetched = records(stream);
        assertEquals(expected.size(), fetched.size(), "records");
        for (int i = 0; i < expected.size(); i++)
        {
            final ProducerRecord<byte[], byte[]> record = expected.get(i);
            final KafkaFetchStreams.Fetched got = fetched.get(i);
            assertEquals(firstOffset + i, got.offset(), "offset of record " + i);
            assertEquals(record.timestamp().longValue(), got.timestamp(), "timestamp of record " + i);
            assertEquals(record.key() != null ? new String(record.key(), UTF_8) : null, got.key(), "key of record " + i);
            final List<String> headers = new ArrayList<>();
            for (Header header : record.headers())
            {
                headers.add(header.key() + "=" + (header.value() != null ? new String(header.value(), UTF_8) : null));
            }
            assertEquals(headers, got.headers(), "headers of record " + i);
            assertEquals(0, got.deferred());
            assertTrue(got.latestOffset() >= got.offset() + 1, "high watermark past the record");
        }
        assertArrayEquals(expectedBytes(expected), stream.received(), "values");
    }

    private static byte[] expectedBytes(List<ProducerRecord<byte[], byte[]>> records)
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (ProducerRecord<byte[], byte[]> record : records)
        {
            if (record.value() != null)
            {
                bytes.writeBytes(record.value());
            }
        }
        return bytes.toByteArray();
    }

    static List<String> keys(List<KafkaFetchStreams.Fetched> records)
    {
        return records.stream().map(KafkaFetchStreams.Fetched::key).toList();
    }

    static List<Long> offsets(List<KafkaFetchStreams.Fetched> records)
    {
        return records.stream().map(KafkaFetchStreams.Fetched::offset).toList();
    }

    private static List<Long> expectedOffsets(int count, IntPredicate passes)
    {
        final List<Long> offsets = new ArrayList<>();
        for (int i = 0; i < count; i++)
        {
            if (passes.test(i))
            {
                offsets.add((long) i);
            }
        }
        return offsets;
    }

    private static String concat(List<ProducerRecord<byte[], byte[]>> records, IntPredicate passes)
    {
        final StringBuilder text = new StringBuilder();
        for (int i = 0; i < records.size(); i++)
        {
            if (passes.test(i))
            {
                text.append(new String(records.get(i).value(), UTF_8));
            }
        }
        return text.toString();
    }
}
