/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.sse.kafka;

import static io.zilla.it.sse.kafka.SseKafkaFanoutExampleTest.awaitOpen;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The example at scale: 10,000 concurrent SSE connections (from a child JVM, SseConnections) on 2 workers all receive a
 * burst; and a client that stops reading does not hold up the others, then gets everything once it reads again.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class SseKafkaScaleTest
{
    private static final int CONNECTIONS = 10_000;
    private static final int BURST = 10;
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().workers(2)
        .property("zilla.engine.buffer.slots", 16384);

    @Test
    void shouldFanABurstOutToTenThousandConnections(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final FanoutExample example = new FanoutExample(kafka, topics.create(8));
        example.start(engine);

        final Process clients = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx256m", "-cp", System.getProperty("java.class.path"), SseConnections.class.getName(),
            Integer.toString(example.port), "/" + example.topic, Integer.toString(CONNECTIONS), Integer.toString(BURST),
            Long.toString(WAIT.toSeconds() * 2))
            .redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(clients.getInputStream(),
            StandardCharsets.US_ASCII)))
        {
            final String open = out.readLine();
            assertEquals("open " + CONNECTIONS, open);
            Thread.sleep(500);
            example.produceRange(0, BURST);
            final String done = out.readLine();
            assertTrue(done != null && done.startsWith("done "), done);
            assertEquals(BURST, Integer.parseInt(done.split(" ")[2]), "more events than produced: " + done);
        }
        finally
        {
            clients.destroyForcibly();
            clients.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void shouldNotHoldUpOthersForAClientThatStopsReading(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final FanoutExample example = new FanoutExample(kafka, topics.create(1));
        example.start(engine);
        final int records = 2000;
        final String large = "x".repeat(1024);

        try (Socket stalled = new Socket())
        {
            stalled.setReceiveBufferSize(4096);
            stalled.connect(new InetSocketAddress("127.0.0.1", example.port));
            final OutputStream request = stalled.getOutputStream();
            request.write(("GET /" + example.topic + " HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            request.flush();

            final List<CurlStream> readers = new ArrayList<>();
            try
            {
                for (int n = 0; n < 3; n++)
                {
                    final CurlStream reader = CurlStream.open(example.url());
                    readers.add(reader);
                    awaitOpen(reader);
                }
                final List<Map.Entry<String, String>> values = new ArrayList<>();
                for (int n = 0; n < records; n++)
                {
                    values.add(Map.entry("key-" + n, n + ":" + large));
                }
                example.produceAll(values);

                // the others read all 2 MiB while the stalled one takes nothing
                for (CurlStream reader : readers)
                {
                    assertEquals(records, reader.await(records, WAIT).size());
                }
            }
            finally
            {
                for (CurlStream reader : readers)
                {
                    reader.close();
                }
            }

            // once it reads, it gets every record, in order
            final InputStream in = stalled.getInputStream();
            final SseConnections.ChunkedEvents events = new SseConnections.ChunkedEvents();
            final byte[] buffer = new byte[65536];
            stalled.setSoTimeout((int) WAIT.toMillis());
            while (events.events() < records)
            {
                final int read = in.read(buffer);
                assertTrue(read > 0, "the stalled client's stream ended after " + events.events() + " events");
                for (int i = 0; i < read; i++)
                {
                    events.onByte(buffer[i]);
                }
            }
            assertEquals(records, events.events());
        }
    }
}
