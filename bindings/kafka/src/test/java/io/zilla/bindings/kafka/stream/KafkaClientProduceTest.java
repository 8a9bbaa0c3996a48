/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.replyBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceBeginEx;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceDataEx;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Properties;

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
import io.zilla.specs.kafka.types.stream.KafkaCapability;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** PRODUCE streams from the test binding through the kafka client to the shared real broker, read back with a KafkaConsumer. */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaClientProduceTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int WHOLE = 0x03;
    private static final int INIT = 0x02;
    private static final int FIN = 0x01;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientProduceTest.class);

    @Test
    void shouldProduceRecordsToEveryPartitionAndReadThemBackInOrder(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(8);
        final TestClient app = start(kafka);
        final long base = System.currentTimeMillis() - 60_000L;
        final List<TestStream> streams = new ArrayList<>();
        for (int p = 0; p < 8; p++)
        {
            streams.add(app.open(produceBeginEx(topic, p, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS)));
        }
        final List<Expected> expected = new ArrayList<>();
        for (int i = 0; i < 1000; i++)
        {
            final Expected record = expected(i, i % 8, base + i);
            expected.add(record);
            app.send(streams.get(record.partition), record.value, produceDataEx(0, record.timestamp, record.key,
                record.headers), WHOLE);
        }
        for (TestStream stream : streams)
        {
            app.end(stream);
        }
        for (TestStream stream : streams)
        {
            stream.await(WAIT, () -> stream.ended() || stream.reset());
            assertFalse(stream.reset(), () -> "reset with " + resetError(stream) + ", events " + engine.events());
            assertEquals(stream.sequence(), stream.acknowledged(), "every record acknowledged");
        }

        final KafkaBeginExFW replyBeginEx = replyBeginEx(streams.get(3));
        assertEquals(KafkaCapability.PRODUCE, replyBeginEx.kind());
        assertEquals(topic, replyBeginEx.produce().topic().asString());
        assertEquals(3, replyBeginEx.produce().partition().partitionId());

        final List<ConsumerRecord<byte[], byte[]>> consumed = consume(kafka, topic, 8, 1000);
        assertEquals(1000, consumed.size());
        for (int p = 0; p < 8; p++)
        {
            final int partition = p;
            final Iterator<Expected> wanted = expected.stream().filter(e -> e.partition == partition).iterator();
            for (ConsumerRecord<byte[], byte[]> record : consumed)
            {
                if (record.partition() == partition)
                {
                    wanted.next().check(record);
                }
            }
            assertFalse(wanted.hasNext(), "all of partition " + p);
        }
        final long requests = counter(engine.directory(), "kafka_client", "produce.requests");
        // a Produce request carries the batches of several partitions when they are ready together (KafkaProduceGroups):
        // fewer requests than partitions is fine, one per record is not
        assertTrue(requests >= 1 && requests < 1000, "records were batched: " + requests + " Produce requests");
        assertEquals(1000, counter(engine.directory(), "kafka_client", "produce.records"));
    }

    @ParameterizedTest
    @EnumSource(KafkaAckMode.class)
    void shouldProduceWithEachAckMode(KafkaAckMode ackMode, EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.name() + "-" + ackMode;
        kafka.createTopic(topic, 1);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(produceBeginEx(topic, 0, -1L, (short) -1, ackMode));
        final long base = System.currentTimeMillis();
        final List<Expected> expected = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            final Expected record = expected(i, 0, base + i);
            expected.add(record);
            app.send(stream, record.value, produceDataEx(0, record.timestamp, record.key, record.headers), WHOLE);
        }
        stream.await(WAIT, () -> stream.waiting() == 0 && stream.acknowledged() == stream.sequence());
        if (ackMode != KafkaAckMode.NONE)
        {
            // the credit came back after the broker acknowledged: every record is there now
            assertEquals(100, endOffset(kafka, topic), "acknowledged records are in the log");
        }
        app.end(stream);
        stream.await(WAIT, stream::ended);

        final List<ConsumerRecord<byte[], byte[]>> consumed = consume(kafka, topic, 1, 100);
        assertEquals(100, consumed.size());
        for (int i = 0; i < 100; i++)
        {
            expected.get(i).check(consumed.get(i));
        }
        assertEquals(ackMode.value(), replyBeginEx(stream).produce().ackMode().value());
    }

    @Test
    void shouldProduceRecordsLargerThan16KiBWholeAndInFragments(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(1);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.LEADER_ONLY));
        final byte[] large = filled(20 * 1024, 'a');
        final byte[] fragmented = filled(24 * 1024, 'b');
        app.send(stream, large, produceDataEx(0, 0L, "large".getBytes(), List.of()), WHOLE);
        final int third = fragmented.length / 3;
        app.send(stream, Arrays.copyOfRange(fragmented, 0, third),
            produceDataEx(fragmented.length - third, 0L, "fragmented".getBytes(), List.of(new Header("h", null))), INIT);
        app.send(stream, Arrays.copyOfRange(fragmented, third, 2 * third), null, 0);
        app.send(stream, Arrays.copyOfRange(fragmented, 2 * third, fragmented.length), null, FIN);
        app.end(stream);
        stream.await(WAIT, stream::ended);
        assertFalse(stream.reset());

        final List<ConsumerRecord<byte[], byte[]>> consumed = consume(kafka, topic, 1, 2);
        assertEquals(2, consumed.size());
        assertArrayEquals("large".getBytes(), consumed.get(0).key());
        assertArrayEquals(large, consumed.get(0).value());
        assertArrayEquals("fragmented".getBytes(), consumed.get(1).key());
        assertArrayEquals(fragmented, consumed.get(1).value());
        assertNull(consumed.get(1).headers().lastHeader("h").value());
    }

    @Test
    void shouldProduceRecordsLargerThanABatchInFragmentsInOrder(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(1);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        final byte[] said = filled(600 * 1024, 'c');
        final byte[] unsaid = filled(200 * 1024, 'd');
        app.send(stream, filled(100, 'a'), produceDataEx(0, 0L, "before".getBytes(), List.of()), WHOLE);
        // deferred says how large it is: put together on the heap from its first fragment
        sendInFragments(app, stream, said, "said", said.length);
        // deferred 0: on the heap once its bytes outgrow a batch
        sendInFragments(app, stream, unsaid, "unsaid", 0);
        app.send(stream, filled(100, 'e'), produceDataEx(0, 0L, "after".getBytes(), List.of()), WHOLE);
        app.end(stream);
        stream.await(WAIT, stream::ended);
        assertFalse(stream.reset(), stream.frames().toString());

        final List<ConsumerRecord<byte[], byte[]>> consumed = consume(kafka, topic, 1, 4);
        assertEquals(List.of("before", "said", "unsaid", "after"), consumed.stream().map(r -> new String(r.key())).toList());
        assertArrayEquals(said, consumed.get(1).value());
        assertArrayEquals(unsaid, consumed.get(2).value());
    }

    @Test
    void shouldProduceRecordsSentInManySmallFragments(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(1);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.LEADER_ONLY));
        // each fragment pays a frame's padding: 512 of them took more than a batch's credit, and the record waited
        final List<byte[]> values = new ArrayList<>();
        for (int r = 0; r < 3; r++)
        {
            final byte[] value = filled(2048, (char) ('a' + r));
            values.add(value);
            for (int at = 0; at < value.length; at += 4)
            {
                final int flags = (at == 0 ? INIT : 0) | (at + 4 == value.length ? FIN : 0);
                app.send(stream, Arrays.copyOfRange(value, at, at + 4), at == 0
                    ? produceDataEx(value.length - 4, 0L, ("small-" + r).getBytes(), List.of()) : null, flags);
            }
        }
        app.send(stream, filled(100, 'z'), produceDataEx(0, 0L, "after".getBytes(), List.of()), WHOLE);
        app.end(stream);
        stream.await(WAIT, stream::ended);
        assertFalse(stream.reset(), stream.frames().toString());

        final List<ConsumerRecord<byte[], byte[]>> consumed = consume(kafka, topic, 1, 4);
        assertEquals(List.of("small-0", "small-1", "small-2", "after"),
            consumed.stream().map(r -> new String(r.key())).toList());
        for (int r = 0; r < 3; r++)
        {
            assertArrayEquals(values.get(r), consumed.get(r).value());
        }
    }

    // the value in fragments of 8 KiB, the first saying {@code size} less its own length is to come (0: nothing said)
    static void sendInFragments(TestClient app, TestStream stream, byte[] value, String key, int size)
    {
        final int fragment = 8 * 1024;
        for (int at = 0; at < value.length; at += fragment)
        {
            final int end = Math.min(value.length, at + fragment);
            final int flags = (at == 0 ? INIT : 0) | (end == value.length ? FIN : 0);
            app.send(stream, Arrays.copyOfRange(value, at, end), at == 0
                ? produceDataEx(Math.max(size - end, 0), 0L, key.getBytes(), List.of()) : null, flags);
        }
    }

    @Test
    void shouldResetAnUnknownTopicWithItsError(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final TestClient app = start(kafka);
        final TestStream stream = app.open(produceBeginEx(topics.name(), 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        stream.await(WAIT, stream::reset);
        assertEquals(Short.valueOf((short) 3), resetError(stream), "UNKNOWN_TOPIC_OR_PARTITION");
    }

    @Test
    void shouldResetAnUnknownPartitionWithItsError(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(2);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(produceBeginEx(topic, 5, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        stream.await(WAIT, stream::reset);
        assertEquals(Short.valueOf((short) 3), resetError(stream), "UNKNOWN_TOPIC_OR_PARTITION");
        stream.await(WAIT, () -> engine.events().stream().anyMatch(e -> e.event().equals("kafka.produce.failed")));
    }

    @Test
    void shouldRetryAPartitionTheLeaderDoesNotKnowThenResetWithinSeconds(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(1);
        final TestClient app = start(kafka);
        final TestStream stream = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        app.send(stream, "before".getBytes(StandardCharsets.UTF_8), produceDataEx(0, 0L, "k".getBytes(), List.of()),
            WHOLE);
        stream.await(WAIT, () -> stream.acknowledged() == stream.sequence() && stream.sequence() > 0);
        final Properties properties = new Properties();
        properties.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        try (Admin admin = Admin.create(properties))
        {
            admin.deleteTopics(List.of(topic)).all().get();
        }
        final long deleted = System.nanoTime();
        app.send(stream, "after".getBytes(StandardCharsets.UTF_8), produceDataEx(0, 0L, "k".getBytes(), List.of()),
            WHOLE);
        stream.await(WAIT, stream::reset);
        final long seconds = Duration.ofNanos(System.nanoTime() - deleted).toSeconds();
        assertEquals(Short.valueOf((short) 3), resetError(stream), () -> "UNKNOWN_TOPIC_OR_PARTITION, " + engine.events());
        assertTrue(counter(engine.directory(), "kafka_client", "produce.retries") >= 1, "retried before giving up");
        assertTrue(seconds < 15, seconds + " s");
    }

    private TestClient start(EmbeddedKafka kafka)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).start("client.yaml");
        return TestBinding.client("app");
    }

    static List<ConsumerRecord<byte[], byte[]>> consume(EmbeddedKafka kafka, String topic, int partitions, int count)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        final List<ConsumerRecord<byte[], byte[]>> consumed = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config))
        {
            final List<TopicPartition> assigned = new ArrayList<>();
            for (int p = 0; p < partitions; p++)
            {
                assigned.add(new TopicPartition(topic, p));
            }
            consumer.assign(assigned);
            consumer.seekToBeginning(assigned);
            final long deadline = System.currentTimeMillis() + WAIT.toMillis();
            while (consumed.size() < count && System.currentTimeMillis() < deadline)
            {
                consumer.poll(Duration.ofMillis(200)).forEach(consumed::add);
            }
            // anything more than expected would be a duplicate: look a little longer
            consumer.poll(Duration.ofMillis(500)).forEach(consumed::add);
        }
        return consumed;
    }

    static long endOffset(EmbeddedKafka kafka, String topic)
    {
        final Properties config = new Properties();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config))
        {
            final TopicPartition partition = new TopicPartition(topic, 0);
            return consumer.endOffsets(List.of(partition)).get(partition);
        }
    }

    private static byte[] filled(int length, char c)
    {
        final byte[] bytes = new byte[length];
        Arrays.fill(bytes, (byte) c);
        bytes[length - 1] = '!';
        return bytes;
    }

    // keys, values incl. null and empty, headers incl. a null value and none at all
    private static Expected expected(int i, int partition, long timestamp)
    {
        final byte[] key = i % 50 == 7 ? null : ("key-" + i).getBytes(StandardCharsets.UTF_8);
        final byte[] value = i % 97 == 5 ? null : i % 89 == 3 ? new byte[0] : ("value-" + i).getBytes(StandardCharsets.UTF_8);
        final List<Header> headers = i % 3 == 0
            ? List.of()
            : List.of(new Header("h1", ("v-" + i).getBytes(StandardCharsets.UTF_8)), new Header("h2", i % 3 == 1 ? null
                : new byte[0]));
        return new Expected(partition, timestamp, key, value, headers);
    }

    private record Expected(int partition, long timestamp, byte[] key, byte[] value, List<Header> headers)
    {
        void check(ConsumerRecord<byte[], byte[]> record)
        {
            assertEquals(partition, record.partition());
            assertEquals(timestamp, record.timestamp());
            assertArrayEquals(key, record.key());
            assertArrayEquals(value, record.value());
            final org.apache.kafka.common.header.Header[] got = record.headers().toArray();
            assertEquals(headers.size(), got.length);
            for (int h = 0; h < got.length; h++)
            {
                assertEquals(new RecordHeader(headers.get(h).name(), headers.get(h).value()), got[h]);
            }
        }
    }
}
