/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.stream;

import static io.zilla.bindings.sse.kafka.test.SseStreams.beginEx;
import static io.zilla.bindings.sse.kafka.test.SseStreams.events;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.sse.kafka.test.SseStreams.Event;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.codec.KafkaProgressToken;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * sse-kafka end to end on the real broker: a test client opens sse streams (as the sse server would) to the proxy,
 * whose exit is the kafka cache (cache_client, cache_server, kind client, tcp client, broker).
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class SseKafkaProxyTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int PARTITIONS = 4;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(SseKafkaProxyTest.class);

    @RegisterExtension
    final EngineExtension other = new EngineExtension().anchor(SseKafkaProxyTest.class);

    /** A record as produced: where it went, and what it was. */
    record Produced(int partition, long offset, long timestamp, String key, String value)
    {
    }

    @Test
    void shouldDeliverEveryRecordAsAnEventWithItsProgressAsId(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final List<Produced> produced = produce(kafka, topic, "a", 40);
        start(engine, kafka, topic, "app");

        final TestStream stream = TestBinding.client("app").open(beginEx("/events", null));
        stream.await(WAIT, () -> events(stream).size() >= produced.size());
        final List<Event> events = events(stream);
        assertEquals(produced.size(), events.size());
        assertEventsAre(produced, events);
        assertEquals("BEGIN", stream.frames().get(0).split(" ")[0], "the reply began before the events");

        // the id of each event is the progress after it: its own partition at its offset + 1
        final KafkaProgressToken token = new KafkaProgressToken();
        for (Event event : events)
        {
            final Produced record = byValue(produced, event.text());
            assertTrue(decode(token, event.id()), event.id());
            assertEquals(record.offset() + 1, token.offsetOf(record.partition(), -9L), event.id());
            assertEquals(record.timestamp(), event.timestamp());
            assertNull(event.type());
            assertEquals(1, event.frames());
        }
    }

    @Test
    void shouldFilterByKeyAndByHeaderFromThePath(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final List<Produced> produced = produce(kafka, topic, "f", 60);
        start(engine, kafka, topic, "app");
        final TestClient app = TestBinding.client("app");

        final TestStream byKey = app.open(beginEx("/events/f-key-3", null));
        final TestStream byHeader = app.open(beginEx("/tenants/t1/events?since=now", null));
        final List<Produced> key3 = produced.stream().filter(r -> r.key().equals("f-key-3")).toList();
        final List<Produced> tenant1 = produced.stream().filter(r -> tenant(r).equals("t1")).toList();
        byKey.await(WAIT, () -> events(byKey).size() >= key3.size());
        byHeader.await(WAIT, () -> events(byHeader).size() >= tenant1.size());

        assertEventsAre(key3, events(byKey));
        assertEventsAre(tenant1, events(byHeader));

        // and what is written after: the live part of the same streams
        final List<Produced> more = produce(kafka, topic, "f", 60, 90);
        final List<Produced> key3All = new ArrayList<>(key3);
        more.stream().filter(r -> r.key().equals("f-key-3")).forEach(key3All::add);
        final List<Produced> tenantAll = new ArrayList<>(tenant1);
        more.stream().filter(r -> tenant(r).equals("t1")).forEach(tenantAll::add);
        byKey.await(WAIT, () -> events(byKey).size() >= key3All.size());
        byHeader.await(WAIT, () -> events(byHeader).size() >= tenantAll.size());
        assertEventsAre(key3All, events(byKey));
        assertEventsAre(tenantAll, events(byHeader));
    }

    @Test
    void shouldSendADeleteEventForATombstone(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka))
        {
            producer.send(new ProducerRecord<>(topic, 0, "item-1".getBytes(UTF_8), "v1".getBytes(UTF_8))).get();
            producer.send(new ProducerRecord<>(topic, 0, "item-1".getBytes(UTF_8), null)).get();
            producer.send(new ProducerRecord<>(topic, 0, new byte[] {(byte) 0xfb, (byte) 0xff}, null)).get();
            producer.send(new ProducerRecord<>(topic, 0, "after".getBytes(UTF_8), new byte[0])).get();
        }
        start(engine, kafka, topic, "app");
        final TestClient app = TestBinding.client("app");
        final TestStream stream = app.open(beginEx("/events", null));
        final TestStream keyed = app.open(beginEx("/keyed", null));
        stream.await(WAIT, () -> events(stream).size() >= 4);
        keyed.await(WAIT, () -> events(keyed).size() >= 4);

        final List<Event> events = events(stream);
        assertEquals("v1", events.get(0).text());
        assertNull(events.get(0).type());
        assertEquals("delete", events.get(1).type());
        assertEquals(Base64.getUrlEncoder().withoutPadding().encodeToString("item-1".getBytes(UTF_8)), events.get(1).text());
        assertEquals("delete", events.get(2).type());
        assertEquals("-_8", events.get(2).text(), "base64url, without padding");
        assertNull(events.get(3).type(), "an empty value is an event with empty data, not a delete");
        assertEquals("", events.get(3).text());

        // the key-and-etag form: ["base64url(key)","token"]
        final Event delete = events(keyed).get(1);
        assertEquals("[\"aXRlbS0x\",\"" + events.get(1).id() + "\"]", delete.id());
    }

    @Test
    void shouldResumeExactlyAfterAnIdOnThisEngineAnotherAndAfterARestart(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final List<Produced> first = produce(kafka, topic, "r", 100);
        start(engine, kafka, topic, "app");
        final TestStream stream = TestBinding.client("app").open(beginEx("/events", null));
        stream.await(WAIT, () -> events(stream).size() >= first.size());
        final List<Event> seen = events(stream);
        // mid-stream: the client had the first 37 events, then went away
        final List<Event> had = seen.subList(0, 37);
        final String lastId = had.get(had.size() - 1).id();
        final List<Produced> more = produce(kafka, topic, "r", 100, 140);
        final List<Produced> all = new ArrayList<>(first);
        all.addAll(more);
        final List<Produced> missed = new ArrayList<>(all);
        had.forEach(event -> missed.remove(byValue(all, event.text())));

        final TestStream resumed = TestBinding.client("app").open(beginEx("/events", lastId));
        resumed.await(WAIT, () -> events(resumed).size() >= missed.size());
        assertEventsAre(missed, events(resumed));

        // another replica on the same broker, with a cache of its own
        start(other, kafka, topic, "replica");
        final TestStream elsewhere = TestBinding.client("replica").open(beginEx("/events", lastId));
        elsewhere.await(WAIT, () -> events(elsewhere).size() >= missed.size());
        assertEventsAre(missed, events(elsewhere));

        // this engine restarted: its cache is rebuilt from Kafka, the id still says where the client was
        engine.engine().close();
        start(engine, kafka, topic, "app");
        final TestStream restarted = TestBinding.client("app").open(beginEx("/events", lastId));
        restarted.await(WAIT, () -> events(restarted).size() >= missed.size());
        assertEventsAre(missed, events(restarted));

        // and the key-and-etag form resumes too, from either form
        final TestStream keyed = TestBinding.client("app").open(beginEx("/keyed", "[\"eA\",\"" + lastId + "\"]"));
        keyed.await(WAIT, () -> events(keyed).size() >= missed.size());
        assertEventsAre(missed, events(keyed));
    }

    @Test
    void shouldStartAfreshFromAGarbageOrForgedId(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        final List<Produced> produced = produce(kafka, topic, "g", 20);
        start(engine, kafka, topic, "app");
        final TestClient app = TestBinding.client("app");
        final KafkaProgressToken token = new KafkaProgressToken();
        token.put(0, KafkaProgressToken.MAX_OFFSET);
        token.put(1, 3L);
        final UnsafeBuffer forged = new UnsafeBuffer(new byte[64]);
        final String huge = forged.getStringWithoutLengthAscii(0, token.encode(forged, 0, forged.capacity()));

        final List<String> ids = List.of("garbage!", "", "AgEAAA", "[\"x\",\"nope\"]", "[", huge,
            "A".repeat(20_000));
        final List<TestStream> streams = new ArrayList<>();
        for (String id : ids)
        {
            streams.add(app.open(beginEx("/events", id)));
        }
        for (int i = 0; i < streams.size(); i++)
        {
            final TestStream stream = streams.get(i);
            stream.await(WAIT, () -> stream.reset() || events(stream).size() >= produced.size());
            assertFalse(stream.reset(), ids.get(i));
            assertEventsAre(produced, events(stream));
        }
    }

    @Test
    void shouldStartALiveRouteAtTheEnd(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(PARTITIONS);
        produce(kafka, topic, "before", 20);
        start(engine, kafka, topic, "app");
        final TestStream live = TestBinding.client("app").open(beginEx("/live", null));
        live.await(WAIT, () -> !live.frames().isEmpty());
        // records one at a time until the first arrives: the stream may attach any time after its Begin
        final List<Produced> after = new ArrayList<>();
        for (int i = 0; events(live).isEmpty() && i < 600; i++)
        {
            after.addAll(produce(kafka, topic, "after", i, i + 1));
            Thread.sleep(50);
        }
        final List<Produced> more = produce(kafka, topic, "after", 1000, 1010);
        final Set<String> values = new HashSet<>();
        live.await(WAIT, () -> events(live).stream().filter(e -> e.text().startsWith("after-")
            && Integer.parseInt(e.text().split("-")[2]) >= 1000).count() >= more.size());
        for (Event event : events(live))
        {
            assertTrue(event.text().startsWith("after-"), "nothing written before the stream: " + event.text());
            assertTrue(values.add(event.text()), "once: " + event.text());
        }
    }

    @Test
    void shouldPassAValueLargerThanTheWindowInFragments(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(2);
        final byte[] large = new byte[40 * 1024];
        for (int i = 0; i < large.length; i++)
        {
            large[i] = (byte) ('a' + i % 26);
        }
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka))
        {
            producer.send(new ProducerRecord<>(topic, 0, "small-0".getBytes(UTF_8), "s0".getBytes(UTF_8))).get();
            producer.send(new ProducerRecord<>(topic, 1, "large".getBytes(UTF_8), large)).get();
            producer.send(new ProducerRecord<>(topic, 0, "small-1".getBytes(UTF_8), "s1".getBytes(UTF_8))).get();
            producer.send(new ProducerRecord<>(topic, 1, "small-2".getBytes(UTF_8), "s2".getBytes(UTF_8))).get();
        }
        start(engine, kafka, topic, "app");
        // 4 KiB of credit at a time: the large value comes in fragments, and nothing of another record between them
        final TestStream stream = TestBinding.client("app").open(beginEx("/events", null), 4096);
        stream.await(WAIT, () -> stream.receivedBytes() >= large.length + 6);
        final List<Event> events = events(stream);
        assertEquals(4, events.size());
        final Event fragmented = events.stream().filter(e -> e.data().length == large.length).findFirst().orElseThrow();
        assertArrayEquals(large, fragmented.data());
        assertTrue(fragmented.frames() > 10, "in fragments: " + fragmented.frames());
        assertEquals(Set.of("s0", "s1", "s2"), Set.of(events.stream().filter(e -> e != fragmented).map(Event::text)
            .toArray(String[]::new)));
    }

    @Test
    void shouldResetAStreamOfAnUnknownTopicBeforeItsReplyBegins(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        start(engine, kafka, topic, "app");
        final TestClient app = TestBinding.client("app");
        final TestStream missing = app.open(beginEx("/topics/" + topic + "-missing", null));
        final TestStream unrouted = app.open(beginEx("/nowhere", null));
        missing.await(WAIT, missing::reset);
        unrouted.await(WAIT, unrouted::reset);
        assertFalse(missing.frames().stream().anyMatch(f -> f.startsWith("BEGIN")), "no reply: " + missing.frames());
        assertFalse(unrouted.frames().stream().anyMatch(f -> f.startsWith("BEGIN")));

        // the path's topic, once it is one
        produce(kafka, topic, "p", 3);
        final TestStream found = app.open(beginEx("/topics/" + topic, null));
        found.await(WAIT, () -> events(found).size() >= 3);
    }

    private static void start(EngineExtension extension, EmbeddedKafka kafka, String topic, String app) throws Exception
    {
        final String yaml = Files.readString(java.nio.file.Path.of(SseKafkaProxyTest.class.getResource("proxy.yaml")
            .toURI())).replace("  app:\n    type: test", "  " + app + ":\n    type: test");
        extension.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).env("TOPIC", topic).startText("proxy.yaml", yaml);
    }

    static List<Produced> produce(EmbeddedKafka kafka, String topic, String prefix, int count) throws Exception
    {
        return produce(kafka, topic, prefix, 0, count);
    }

    // records prefix-key-(i % 7) with value prefix-value-i, a tenant header t(i % 3), spread over the partitions
    static List<Produced> produce(EmbeddedKafka kafka, String topic, String prefix, int from, int to) throws Exception
    {
        final List<Produced> produced = new ArrayList<>();
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka))
        {
            final List<Future<RecordMetadata>> sent = new ArrayList<>();
            final List<String[]> texts = new ArrayList<>();
            final int partitions = producer.partitionsFor(topic).size();
            for (int i = from; i < to; i++)
            {
                final String key = prefix + "-key-" + i % 7;
                final String value = prefix + "-value-" + i;
                final ProducerRecord<byte[], byte[]> record = new ProducerRecord<>(topic, i % partitions, key.getBytes(UTF_8),
                    value.getBytes(UTF_8));
                record.headers().add(new RecordHeader("tenant", ("t" + i % 3).getBytes(UTF_8)));
                sent.add(producer.send(record));
                texts.add(new String[] {key, value});
            }
            for (int i = 0; i < sent.size(); i++)
            {
                final RecordMetadata metadata = sent.get(i).get(30, TimeUnit.SECONDS);
                produced.add(new Produced(metadata.partition(), metadata.offset(), metadata.timestamp(), texts.get(i)[0],
                    texts.get(i)[1]));
            }
        }
        return produced;
    }

    static KafkaProducer<byte[], byte[]> producer(EmbeddedKafka kafka)
    {
        final Properties properties = new Properties();
        properties.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        properties.put(ProducerConfig.ACKS_CONFIG, "all");
        properties.put(ProducerConfig.LINGER_MS_CONFIG, 5);
        return new KafkaProducer<>(properties, new ByteArraySerializer(), new ByteArraySerializer());
    }

    private static String tenant(Produced record)
    {
        return "t" + Integer.parseInt(record.value().substring(record.value().lastIndexOf('-') + 1)) % 3;
    }

    private static Produced byValue(List<Produced> produced, String value)
    {
        return produced.stream().filter(r -> r.value().equals(value)).findFirst()
            .orElseThrow(() -> new AssertionError("no record " + value));
    }

    private static boolean decode(KafkaProgressToken token, String id)
    {
        final UnsafeBuffer buffer = new UnsafeBuffer(id.getBytes(UTF_8));
        return token.decode(buffer, 0, buffer.capacity());
    }

    /** Exactly these records, each once, in order within each partition. */
    static void assertEventsAre(List<Produced> expected, List<Event> events)
    {
        final List<String> values = events.stream().map(Event::text).toList();
        assertEquals(expected.size(), values.size(), "events: " + values);
        assertEquals(expected.size(), new HashSet<>(values).size(), "each once: " + values);
        final Map<Integer, Long> last = new TreeMap<>();
        for (String value : values)
        {
            final Produced record = byValue(expected, value);
            final Long before = last.put(record.partition(), record.offset());
            assertTrue(before == null || before < record.offset(), "in order in partition " + record.partition());
        }
    }
}
