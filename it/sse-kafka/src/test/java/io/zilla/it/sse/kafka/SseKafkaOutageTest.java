/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import static io.zilla.it.sse.kafka.SseKafkaFanoutExampleTest.awaitOpen;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Kafka goes away under open event streams (its own broker, killed with SIGKILL, then restarted on the same port):
 * the streams stay open, keep getting keep-alives, and once Kafka is back every record produced then arrives, none
 * twice. docs/bindings/sse-kafka.md says so.
 */
class SseKafkaOutageTest
{
    private static final Duration WAIT = Duration.ofSeconds(120);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2);

    @Test
    void shouldWaitForKafkaAndGoOn() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            kafka.createTopic("outage", 2);
            final FanoutExample example = new FanoutExample(kafka, "outage");
            example.start(engine);

            final List<CurlStream> streams = new ArrayList<>();
            try
            {
                for (String version : List.of("--http1.1", "--http2-prior-knowledge"))
                {
                    final CurlStream stream = CurlStream.open(example.url(), version);
                    streams.add(stream);
                    awaitOpen(stream);
                }
                example.produceRange(0, 5);
                for (CurlStream stream : streams)
                {
                    assertEquals(5, stream.await(5, WAIT).size());
                }

                kafka.kill();
                Thread.sleep(2_000);
                kafka.restart();
                example.produceRange(5, 10);

                for (CurlStream stream : streams)
                {
                    final List<String> data = stream.await(10, WAIT).stream().map(SseEvent::data).sorted().toList();
                    assertEquals(List.of("value-0", "value-1", "value-2", "value-3", "value-4", "value-5", "value-6",
                        "value-7", "value-8", "value-9"), data);
                    assertTrue(stream.head().contains(" 200"), stream.head());
                }
            }
            finally
            {
                for (CurlStream stream : streams)
                {
                    stream.close();
                }
            }
        }
    }
}
