/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * zilla demo in-process: a real broker in a child JVM behind the kafka proxy; kafka-clients produce and consume
 * through the proxy's port, and a record produced to 'events' arrives at a Server-Sent Events subscriber of the SSE
 * example; the test then plays SIGTERM through the shutdown hooks.
 */
class DemoCommandTest
{
    // the broker's start is 3 to 6 s alone, more on 2 busy cores
    private static final Duration TIMEOUT = Duration.ofSeconds(90);
    private static final Pattern BROKER_LOG = Pattern.compile("its log: (.+)/broker\\.log\\)");
    private static final Pattern METRICS = Pattern.compile("zilla metrics -d (\\S+) prints");

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stopExecutor() throws InterruptedException
    {
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(TIMEOUT.toSeconds(), TimeUnit.SECONDS), "a command is still running");
    }

    @Test
    void shouldProduceAndConsumeThroughProxyAndStopCleanly() throws Exception
    {
        final int port = FreePorts.freePorts(DemoCommand.PORTS);
        final int httpPort = FreePorts.freePort();
        final int restPort = FreePorts.freePort();
        final Zilla zilla = new Zilla();
        final List<ProcessHandle> before = ProcessHandle.current().children().toList();

        final Future<Integer> status = executor.submit(() -> zilla.run("demo", "--port", String.valueOf(port),
            "--http-port", String.valueOf(httpPort), "--rest-port", String.valueOf(restPort), "-w", "1"));
        zilla.awaitOut("Ctrl-C stops the demo.", TIMEOUT);

        final String bootstrap = "localhost:" + port;
        assertTrue(zilla.out().contains("  kcat -b " + bootstrap + " -L\n"), zilla.out());
        assertTrue(zilla.out().contains("  echo 'key1:hello' | kcat -b " + bootstrap + " -t demo -K: -P\n"), zilla.out());
        assertTrue(zilla.out().contains("  kcat -b " + bootstrap + " -t demo -C -K: -e\n"), zilla.out());
        final Matcher log = BROKER_LOG.matcher(zilla.out());
        assertTrue(log.find(), zilla.out());
        final Path brokerDirectory = Path.of(log.group(1));
        assertTrue(Files.isDirectory(brokerDirectory));
        final List<ProcessHandle> brokers = ProcessHandle.current().children().filter(child -> !before.contains(child)).toList();
        assertEquals(1, brokers.size(), brokers.toString());
        assertTrue(brokers.get(0).isAlive());

        // clients see only the proxy: its host and the node port
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap)))
        {
            final DescribeClusterResult cluster = admin.describeCluster();
            final Collection<Node> nodes = cluster.nodes().get(30, TimeUnit.SECONDS);
            assertEquals(1, nodes.size());
            final Node node = nodes.iterator().next();
            assertEquals(List.of("localhost", port + 1), List.of(node.host(), node.port()));
            assertEquals(1, admin.describeTopics(List.of(DemoCommand.TOPIC)).allTopicNames().get(30, TimeUnit.SECONDS)
                .get(DemoCommand.TOPIC).partitions().size());
        }

        final List<String> sent = List.of("hello", "world", "from", "zilla");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 30_000,
            ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 20_000),
            new StringSerializer(), new StringSerializer()))
        {
            for (String value : sent)
            {
                final RecordMetadata written = producer.send(new ProducerRecord<>(DemoCommand.TOPIC, "key1", value))
                    .get(30, TimeUnit.SECONDS);
                assertEquals(0, written.partition());
            }
        }

        final List<String> received = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ConsumerConfig.GROUP_ID_CONFIG, "demo-test",
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"),
            new StringDeserializer(), new StringDeserializer()))
        {
            consumer.subscribe(List.of(DemoCommand.TOPIC));
            final long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (received.size() < sent.size() && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(500)))
                {
                    assertEquals("key1", record.key());
                    received.add(record.value());
                }
            }
            consumer.commitSync(Duration.ofSeconds(30));
            assertEquals(sent.size(), consumer.committed(Set.of(new TopicPartition(DemoCommand.TOPIC, 0)),
                Duration.ofSeconds(30)).get(new TopicPartition(DemoCommand.TOPIC, 0)).offset());
        }
        assertEquals(sent, received);
        assertFalse(status.isDone());

        shouldStreamEventsTopicAsServerSentEvents(zilla.out(), bootstrap, httpPort);
        shouldServeItemsOverRest(zilla.out(), restPort);

        final Matcher metrics = METRICS.matcher(zilla.out());
        assertTrue(metrics.find(), zilla.out());
        final Path engineDirectory = Path.of(metrics.group(1));
        final Zilla counters = new Zilla();
        assertEquals(0, counters.run("metrics", "-d", engineDirectory.toString(), "north_kafka_proxy"), counters.err());
        assertTrue(counters.out().lines().skip(1).allMatch(line -> line.startsWith("north_kafka_proxy ")), counters.out());
        assertTrue(counters.out().lines().count() > 1, counters.out());

        zilla.hooks().signal();

        assertEquals(0, status.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS), zilla.err());
        assertEquals(0, zilla.hooks().halted());
        final List<String> lines = zilla.out().lines().toList();
        assertEquals("stopped zilla demo", lines.get(lines.size() - 1), zilla.out());
        assertEquals("", zilla.err());
        assertFalse(brokers.get(0).isAlive(), "the broker's JVM is gone");
        assertFalse(Files.exists(brokerDirectory), "the broker's data directory is deleted");
        assertFalse(Files.exists(engineDirectory), "the engine directory is deleted");
        try (ServerSocket again = new ServerSocket())
        {
            // the proxy's listening socket is closed: the port can be bound again at once
            again.setReuseAddress(true);
            again.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        }
    }

    // the SSE example of the demo: what it prints, a subscriber over HTTP/1.1, a record produced through the proxy
    private void shouldStreamEventsTopicAsServerSentEvents(String out, String bootstrap, int httpPort) throws Exception
    {
        final String events = "http://localhost:" + httpPort + "/events";
        assertTrue(out.contains("  curl -N " + events + "\n"), out);
        assertTrue(out.contains("  echo 'key1:hello' | kcat -b " + bootstrap + " -t events -K: -P\n"), out);

        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final HttpResponse<String> page = client.send(HttpRequest.newBuilder(
            URI.create("http://localhost:" + httpPort + "/index.html")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, page.statusCode());
        assertTrue(page.body().contains("new EventSource("), page.body());

        final HttpResponse<Stream<String>> stream = client.send(HttpRequest.newBuilder(URI.create(events))
            .header("accept", "text/event-stream").build(), HttpResponse.BodyHandlers.ofLines());
        assertEquals(200, stream.statusCode());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
            ProducerConfig.ACKS_CONFIG, "all"),
            new StringSerializer(), new StringSerializer()))
        {
            producer.send(new ProducerRecord<>("events", "key1", "hello")).get(30, TimeUnit.SECONDS);
        }
        final Future<String> data = executor.submit(() -> stream.body().filter(line -> line.startsWith("data:"))
            .findFirst().orElse(null));
        try
        {
            assertEquals("data:hello", data.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS).replace("data: ", "data:"));
        }
        finally
        {
            stream.body().close();
        }
    }

    // the REST example of the demo: what it prints, then create, read, list and delete an item as those lines do
    private void shouldServeItemsOverRest(String out, int restPort) throws Exception
    {
        final String items = "http://localhost:" + restPort + "/items";
        assertTrue(out.contains("  curl " + items + "/1\n"), out);
        assertTrue(out.contains("  curl -X DELETE " + items + "/1\n"), out);

        final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        final String greeting = "{\"greeting\":\"Hello, world\"}";
        final HttpResponse<String> created = client.send(HttpRequest.newBuilder(URI.create(items))
            .header("Idempotency-Key", "1").header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(greeting)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(204, created.statusCode(), created.body());

        // what Kafka acknowledged reaches the cache a moment later
        final HttpRequest list = HttpRequest.newBuilder(URI.create(items)).build();
        final long deadline = System.nanoTime() + TIMEOUT.toNanos();
        HttpResponse<String> all = client.send(list, HttpResponse.BodyHandlers.ofString());
        while (!("[" + greeting + "]").equals(all.body()) && System.nanoTime() < deadline)
        {
            Thread.sleep(100);
            all = client.send(list, HttpResponse.BodyHandlers.ofString());
        }
        assertEquals("[" + greeting + "]", all.body());
        final HttpResponse<String> item = client.send(HttpRequest.newBuilder(URI.create(items + "/1")).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(200, item.statusCode(), item.body());
        assertEquals(greeting, item.body());
    }

    @Test
    void shouldFailAtOnceWhenPortIsInUse() throws Exception
    {
        try (ServerSocket taken = new ServerSocket())
        {
            taken.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            final int port = taken.getLocalPort();
            final Zilla zilla = new Zilla();
            final List<ProcessHandle> before = ProcessHandle.current().children().toList();

            assertEquals(1, zilla.run("demo", "--port", String.valueOf(port)));

            final List<String> errors = zilla.err().lines().toList();
            assertEquals(1, errors.size(), zilla.err());
            assertTrue(errors.get(0).startsWith("zilla demo: port " + port + " is in use"), zilla.err());
            assertTrue(errors.get(0).endsWith("choose others with --port, --http-port and --rest-port"), zilla.err());
            assertEquals("", zilla.out());
            assertEquals(0, zilla.hooks().registered(), "nothing started, nothing to stop");
            assertEquals(before, ProcessHandle.current().children().toList(), "no broker started");
        }
    }

    @Test
    void shouldRejectPortWithoutRoomForNodePorts()
    {
        final Zilla zilla = new Zilla();

        assertEquals(1, zilla.run("demo", "--port", "65533"));

        assertEquals("zilla demo: --port must be 1 to 65532, not 65533\n", zilla.err());
    }
}
