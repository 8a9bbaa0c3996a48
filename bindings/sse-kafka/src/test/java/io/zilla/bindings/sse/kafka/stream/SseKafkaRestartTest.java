/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.sse.kafka.stream;

import static io.zilla.bindings.sse.kafka.stream.SseKafkaProxyTest.assertEventsAre;
import static io.zilla.bindings.sse.kafka.stream.SseKafkaProxyTest.produce;
import static io.zilla.bindings.sse.kafka.test.SseStreams.beginEx;
import static io.zilla.bindings.sse.kafka.test.SseStreams.events;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zilla.bindings.sse.kafka.stream.SseKafkaProxyTest.Produced;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Kafka going away under sse-kafka streams (a broker of its own): the streams wait, then go on, nothing lost or twice. */
class SseKafkaRestartTest
{
    private static final Duration WAIT = Duration.ofSeconds(90);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(SseKafkaProxyTest.class).workers(2);

    @Test
    void shouldWaitThroughABrokerKilledAfterEventsFlowedAndGoOn() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            final String topic = "killed";
            kafka.createTopic(topic, 4);
            final List<Produced> all = new ArrayList<>(produce(kafka, topic, "a", 40));
            engine.env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).env("TOPIC", topic).start("proxy.yaml");
            final List<TestStream> streams = new ArrayList<>();
            for (int i = 0; i < 10; i++)
            {
                streams.add(TestBinding.client("app", i % 2).open(beginEx("/events", null)));
            }
            for (TestStream stream : streams)
            {
                stream.await(WAIT, () -> events(stream).size() >= all.size());
            }

            kafka.kill();
            Thread.sleep(2_000);
            for (TestStream stream : streams)
            {
                assertFalse(stream.reset() || stream.ended() || stream.aborted(), "a subscriber waits: " + stream.frames());
            }
            // a subscription that begins while Kafka is down waits too, with no reply yet and no error
            final TestStream late = TestBinding.client("app", 0).open(beginEx("/events", null));
            Thread.sleep(1_000);
            assertFalse(late.reset(), "no error while Kafka is down");
            streams.add(late);

            kafka.restart();
            all.addAll(produce(kafka, topic, "b", 40, 80));
            for (TestStream stream : streams)
            {
                stream.await(WAIT, () -> stream.reset() || stream.ended() || events(stream).size() >= all.size());
                assertFalse(stream.reset() || stream.ended() || stream.aborted(), "closed: " + stream.frames());
                assertEventsAre(all, events(stream));
            }
            assertTrue(late.frames().get(0).startsWith("BEGIN"));
        }
    }
}
