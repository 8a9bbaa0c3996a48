/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The broker killed with SIGKILL under a steady stream of PUTs from several clients, then started again (same ports,
 * same data): every request is answered (204 once Kafka has the record, else an error status, 503 after
 * {@code limits.wait} while Kafka is away), PUTs are acknowledged again once it is back, and every record answered
 * 204 is in the topic.
 */
class HttpKafkaBrokerKillTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final int CLIENTS = 4;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpKafkaProxyTest.class);

    @Test
    void shouldAnswerEveryRequestAndLoseNoAcknowledgedRecordWhenTheBrokerIsKilled() throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka().start())
        {
            kafka.createTopic("items", 4);
            final int port = FreePorts.next();
            engine.env("PORT", Integer.toString(port)).env("BODY", "100000")
                .env("KAFKA_BOOTSTRAP", kafka.bootstrapServers())
                .env("TOPIC", "items").env("REQUESTS", "requests").env("RESPONSES", "responses").env("WAIT", "3000")
                .start("proxy.yaml");
            final String base = "http://127.0.0.1:" + port;

            final AtomicBoolean putting = new AtomicBoolean(true);
            final AtomicInteger acknowledged = new AtomicInteger();
            final Set<String> produced = ConcurrentHashMap.newKeySet();
            final Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
            final List<Throwable> unanswered = new ArrayList<>();
            final List<Thread> clients = new ArrayList<>();
            for (int c = 0; c < CLIENTS; c++)
            {
                final int client = c;
                final Thread thread = new Thread(() ->
                {
                    final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(TIMEOUT).build();
                    for (int i = 0; putting.get(); i++)
                    {
                        final String value = "c" + client + "-" + i;
                        try
                        {
                            final HttpResponse<Void> response = http.send(HttpRequest.newBuilder(
                                URI.create(base + "/items/" + value)).timeout(TIMEOUT)
                                .PUT(HttpRequest.BodyPublishers.ofString(value)).build(),
                                HttpResponse.BodyHandlers.discarding());
                            statuses.computeIfAbsent(response.statusCode(), s -> new AtomicInteger()).incrementAndGet();
                            if (response.statusCode() == 204)
                            {
                                produced.add(value);
                                acknowledged.incrementAndGet();
                            }
                        }
                        catch (Exception ex)
                        {
                            synchronized (unanswered)
                            {
                                unanswered.add(ex);
                            }
                            return;
                        }
                    }
                });
                thread.start();
                clients.add(thread);
            }
            try
            {
                awaitAcknowledged(acknowledged, 200);
                kafka.kill();
                Thread.sleep(2_000);
                kafka.restart();
                awaitAcknowledged(acknowledged, acknowledged.get() + 200);
            }
            finally
            {
                putting.set(false);
                for (Thread client : clients)
                {
                    client.join(TIMEOUT.toMillis());
                }
            }
            assertEquals(List.of(), unanswered, "every request answered; statuses " + new TreeMap<>(statuses));

            final Set<String> found = new HashSet<>();
            for (ConsumerRecord<byte[], byte[]> record : HttpKafkaTesting.records(kafka, "items", produced.size()))
            {
                found.add(new String(record.value(), UTF_8));
            }
            final Set<String> lost = new HashSet<>(produced);
            lost.removeAll(found);
            assertEquals(Set.of(), lost, "acknowledged and not in the topic, of " + produced.size() + "; statuses "
                + new TreeMap<>(statuses));
            System.out.printf("HttpKafkaBrokerKillTest: statuses %s, %d acknowledged records all in the topic (%d records)%n",
                new TreeMap<>(statuses), produced.size(), found.size());
        }
    }

    // PUTs acknowledged again after the restart: the produce path came back
    private static void awaitAcknowledged(AtomicInteger acknowledged, int count) throws InterruptedException
    {
        final long deadline = System.currentTimeMillis() + 60_000;
        while (acknowledged.get() < count && System.currentTimeMillis() < deadline)
        {
            Thread.sleep(20);
        }
        assertTrue(acknowledged.get() >= count, "acknowledged " + acknowledged.get() + " of " + count);
    }
}
