/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.stream;

import static io.zilla.bindings.sse.kafka.stream.SseKafkaProxyTest.assertEventsAre;
import static io.zilla.bindings.sse.kafka.stream.SseKafkaProxyTest.produce;
import static io.zilla.bindings.sse.kafka.stream.SseKafkaProxyTest.producer;
import static io.zilla.bindings.sse.kafka.test.SseStreams.beginEx;
import static io.zilla.bindings.sse.kafka.test.SseStreams.events;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

import io.zilla.bindings.sse.kafka.stream.SseKafkaProxyTest.Produced;
import io.zilla.bindings.sse.kafka.test.SseStreams.Event;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Many subscribers on two workers, and subscribers whose window is small. */
@ExtendWith(EmbeddedKafkaExtension.class)
class SseKafkaFanoutTest
{
    private static final Duration WAIT = Duration.ofSeconds(90);
    private static final int SUBSCRIBERS_PER_WORKER = 1_000;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(SseKafkaProxyTest.class).workers(2);

    @Test
    void shouldDeliverABurstToTwoThousandSubscribersOnTwoWorkers(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(8);
        final List<Produced> before = produce(kafka, topic, "b", 16);
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).env("TOPIC", topic).start("proxy.yaml");
        final List<TestStream> streams = new ArrayList<>();
        for (int worker = 0; worker < 2; worker++)
        {
            final TestClient app = TestBinding.client("app", worker);
            for (int i = 0; i < SUBSCRIBERS_PER_WORKER; i++)
            {
                streams.add(app.open(beginEx("/events", null)));
            }
        }
        final List<Produced> burst = produce(kafka, topic, "burst", 16, 96);
        final List<Produced> all = new ArrayList<>(before);
        all.addAll(burst);
        for (TestStream stream : streams)
        {
            stream.await(WAIT, () -> stream.reset() || stream.aborted() || events(stream).size() >= all.size());
            assertFalse(stream.reset() || stream.aborted(), "a subscriber was closed: " + stream.frames());
            assertEventsAre(all, events(stream));
        }
    }

    @Test
    void shouldDeliverDeleteEventsLargerThanTheReserveThroughASmallWindow(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(1);
        // a key of 600 bytes: its delete event's data (800 bytes) is more than the 256 bytes kept back from a 1 KiB
        // window, so while values are in flight it does not fit, and the merged stream is opened again after the last
        // event the client got
        final byte[] longKey = "k".repeat(600).getBytes(UTF_8);
        final byte[] value = "v".repeat(100).getBytes(UTF_8);
        try (KafkaProducer<byte[], byte[]> producer = producer(kafka))
        {
            for (int round = 0; round < 5; round++)
            {
                for (int i = 0; i < 10; i++)
                {
                    producer.send(new ProducerRecord<>(topic, 0, ("key-" + i).getBytes(UTF_8), value));
                }
                producer.send(new ProducerRecord<>(topic, 0, longKey, null));
            }
            producer.flush();
        }
        engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).env("TOPIC", topic).start("proxy.yaml");
        final List<TestStream> streams = new ArrayList<>();
        for (int i = 0; i < 10; i++)
        {
            streams.add(TestBinding.client("app", i % 2).open(beginEx("/events", null), 1024));
        }
        final String deleted = Base64.getUrlEncoder().withoutPadding().encodeToString(longKey);
        for (TestStream stream : streams)
        {
            stream.await(WAIT, () -> stream.reset() || stream.aborted() || events(stream).size() >= 55);
            assertFalse(stream.reset() || stream.aborted(), "closed: " + stream.frames());
            final List<Event> events = events(stream);
            assertEquals(55, events.size());
            for (int i = 0; i < events.size(); i++)
            {
                final Event event = events.get(i);
                if (i % 11 == 10)
                {
                    assertEquals("delete", event.type(), "event " + i);
                    assertEquals(deleted, event.text());
                }
                else
                {
                    assertNull(event.type(), "event " + i);
                    assertEquals(100, event.data().length);
                }
            }
            assertEquals(50 * 100 + 5 * deleted.length(), stream.receivedBytes(), "no event twice");
        }
        final long reopened = EngineCounters.read(engine.directory()).get("sse_kafka_proxy").getOrDefault("merged.reopened", 0L);
        assertTrue(reopened > 0, "the merged streams opened again after a delete event that did not fit");
    }
}
