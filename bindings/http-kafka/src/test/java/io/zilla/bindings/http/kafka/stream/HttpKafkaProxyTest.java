/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static io.zilla.bindings.http.kafka.stream.HttpKafkaTesting.count;
import static io.zilla.bindings.http.kafka.stream.HttpKafkaTesting.header;
import static io.zilla.bindings.http.kafka.stream.HttpKafkaTesting.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * http-kafka end to end on the real broker, with real clients: the JDK HttpClient (HTTP/1.1 and h2c) -> tcp server ->
 * http server -> http-kafka -> kafka cache_client, cache_server, client -> broker; kafka-clients reads what was
 * produced and answers requests.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaProxyTest
{
    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpKafkaProxyTest.class);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
        .connectTimeout(TIMEOUT).build();
    private String base;

    private void start(EmbeddedKafka kafka, String topic, String requests, String responses)
    {
        start(kafka, topic, requests, responses, 100_000);
    }

    private void start(EmbeddedKafka kafka, String topic, String requests, String responses, int body)
    {
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("BODY", Integer.toString(body))
            .env("KAFKA_BOOTSTRAP", kafka.bootstrapServers())
            .env("TOPIC", topic).env("REQUESTS", requests).env("RESPONSES", responses).env("WAIT", "10000")
            .start("proxy.yaml");
        base = "http://127.0.0.1:" + port;
    }

    private void start(EmbeddedKafka kafka, KafkaTopics topics, String topic)
    {
        start(kafka, topic, topics.create(), topics.create());
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws Exception
    {
        return client.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder at(String path)
    {
        return HttpRequest.newBuilder(URI.create(base + path));
    }

    @Test
    void shouldProduceAPutAsARecordOnceKafkaHasIt(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(4);
        start(kafka, topics, topic);

        final HttpResponse<String> response = send(at("/items/a1").header("content-type", "application/json")
            .header("x-trace", "t1").PUT(HttpRequest.BodyPublishers.ofString("{\"a\":1}")));
        assertEquals(204, response.statusCode(), response.body());

        final List<ConsumerRecord<byte[], byte[]>> records = records(kafka, topic, 1);
        assertEquals(1, records.size());
        final ConsumerRecord<byte[], byte[]> record = records.get(0);
        assertEquals("a1", new String(record.key(), UTF_8));
        assertEquals("{\"a\":1}", new String(record.value(), UTF_8));
        assertEquals("application/json", header(record, "content-type"));
        assertEquals("t1", header(record, "x-trace"));
        assertEquals("PUT", header(record, ":method"));
        assertEquals("/items/a1", header(record, ":path"));
        assertEquals("http-a1", header(record, "zilla:source"), "the route's override");
        assertNull(header(record, "content-length"));
    }

    @Test
    void shouldCarryNothingOfAnEarlierRequestIntoTheNextOnOneConnection(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        // one keep-alive connection, one partition: each request takes the exchange (and the request's buffers) the
        // one before it left, with keys and bodies of other lengths, a header only every other one has, and now and
        // then a chunked body (gathered, not streamed)
        final String topic = topics.create();
        start(kafka, topics, topic);
        final int count = 40;
        for (int i = 0; i < count; i++)
        {
            final String key = "k" + "x".repeat(i % 7) + i;
            final String value = "v".repeat(1 + i % 5) + i;
            final HttpRequest.Builder request = at("/items/" + key).header("content-type", "text/plain");
            if (i % 2 == 0)
            {
                request.header("x-even", "e" + i);
            }
            final HttpRequest.BodyPublisher body = i % 5 == 4
                ? HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(value.getBytes(UTF_8)))
                : HttpRequest.BodyPublishers.ofString(value);
            assertEquals(204, send(request.PUT(body)).statusCode(), key);
        }

        final List<ConsumerRecord<byte[], byte[]>> records = records(kafka, topic, count);
        assertEquals(count, records.size());
        for (int i = 0; i < count; i++)
        {
            final ConsumerRecord<byte[], byte[]> record = records.get(i);
            final String key = "k" + "x".repeat(i % 7) + i;
            assertEquals(key, new String(record.key(), UTF_8));
            assertEquals("v".repeat(1 + i % 5) + i, new String(record.value(), UTF_8));
            assertEquals(i % 2 == 0 ? "e" + i : null, header(record, "x-even"), key);
            assertEquals("/items/" + key, header(record, ":path"));
            assertEquals("http-" + key, header(record, "zilla:source"));
            assertEquals(1, count(record, "content-type"), key);
        }
    }

    @Test
    void shouldProduceAChunkedBodyWholeAndRefuseOneOverTheLimit(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create();
        start(kafka, topics, topic);
        final byte[] value = new byte[24_000];
        new Random(7).nextBytes(value);

        // ofInputStream has no length: HTTP/1.1 chunked
        final HttpResponse<String> chunked = send(at("/items/c1")
            .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(value))));
        assertEquals(204, chunked.statusCode());
        final HttpResponse<String> tooLarge = send(at("/items/c2")
            .PUT(HttpRequest.BodyPublishers.ofByteArray(new byte[100_001])));
        assertEquals(413, tooLarge.statusCode());
        final HttpResponse<String> tooLargeChunked = send(at("/items/c3")
            .PUT(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(new byte[150_000]))));
        assertEquals(413, tooLargeChunked.statusCode());

        final List<ConsumerRecord<byte[], byte[]>> records = records(kafka, topic, 1);
        assertEquals(1, records.size(), "only the one within the limit");
        assertArrayEquals(value, records.get(0).value());
    }

    @Test
    void shouldFetchAnItemByKeyTheLatestOneAndDeleteItWithATombstone(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(4);
        start(kafka, topics, topic);
        assertEquals(404, send(at("/items/nothing")).statusCode(), "an empty topic");
        for (int i = 0; i < 3; i++)
        {
            assertEquals(204, send(at("/items/i" + i).header("content-type", "application/json")
                .PUT(HttpRequest.BodyPublishers.ofString("{\"v\":" + i + "}"))).statusCode());
        }
        assertEquals(204, send(at("/items/i1").header("content-type", "application/json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"v\":11}"))).statusCode());

        final HttpResponse<String> item = send(at("/items/i1"));
        assertEquals(200, item.statusCode());
        assertEquals("{\"v\":11}", item.body(), "the latest of its key");
        assertEquals("application/json", item.headers().firstValue("content-type").orElse(null));
        assertTrue(item.headers().firstValue("etag").orElse("").matches("\"[A-Za-z0-9_-]+\""), item.headers().toString());
        assertEquals(404, send(at("/items/none")).statusCode());

        final HttpResponse<String> deleted = send(at("/items/i1").header("if-match", item.headers()
            .firstValue("etag").orElseThrow()).DELETE());
        assertEquals(204, deleted.statusCode());
        assertEquals(404, send(at("/items/i1")).statusCode(), "deleted");
        assertEquals(200, send(at("/items/i2")).statusCode());

        final List<ConsumerRecord<byte[], byte[]>> records = records(kafka, topic, 5);
        final ConsumerRecord<byte[], byte[]> tombstone = records.get(records.size() - 1);
        assertNull(tombstone.value(), "a tombstone");
        assertEquals("i1", new String(tombstone.key(), UTF_8));
        assertEquals(item.headers().firstValue("etag").orElseThrow(), header(tombstone, "if-match"));
    }

    @Test
    void shouldAnswerGetsWhileTheTopicIsProducedTo(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        // PUTs one after the other through the same engine all along: a GET waited for a high watermark that kept
        // moving, and for the cache to settle after the last acknowledgement, which kept coming, then answered 503
        final String topic = topics.create(4);
        start(kafka, topics, topic);
        assertEquals(204, send(at("/items/fixed").PUT(HttpRequest.BodyPublishers.ofString("{\"v\":\"fixed\"}")))
            .statusCode());
        final AtomicBoolean producing = new AtomicBoolean(true);
        final AtomicInteger produced = new AtomicInteger();
        final Thread producer = new Thread(() ->
        {
            final HttpClient puts = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
            for (int i = 0; producing.get(); i++)
            {
                try
                {
                    final HttpResponse<Void> put = puts.send(at("/items/p" + i % 50).timeout(TIMEOUT)
                        .PUT(HttpRequest.BodyPublishers.ofString("{\"v\":" + i + "}")).build(),
                        HttpResponse.BodyHandlers.discarding());
                    if (put.statusCode() == 204)
                    {
                        produced.incrementAndGet();
                    }
                }
                catch (Exception ex)
                {
                    return;
                }
            }
        });
        producer.start();
        try
        {
            while (produced.get() < 200)
            {
                Thread.sleep(10);
            }
            for (int g = 0; g < 3; g++)
            {
                final HttpResponse<String> item = send(at("/items/fixed"));
                assertEquals(200, item.statusCode(), "GET " + g + " while " + produced.get() + " PUTs went");
                assertEquals("{\"v\":\"fixed\"}", item.body());
                final HttpResponse<String> list = send(at("/items"));
                assertEquals(200, list.statusCode(), "GET of the list " + g);
                assertTrue(list.body().contains("{\"v\":\"fixed\"}"), list.body());
            }
        }
        finally
        {
            producing.set(false);
            producer.join();
        }
    }

    @Test
    void shouldMergeTheLatestOfEachKeyIntoOneJsonDocument(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(4);
        start(kafka, topics, topic);
        assertEquals("{\"data\":[]}", send(at("/items")).body());
        for (String[] put : new String[][] {{"k1", "1"}, {"k2", "2"}, {"k3", "3"}, {"k2", "22"}})
        {
            assertEquals(204, send(at("/items/" + put[0]).PUT(HttpRequest.BodyPublishers.ofString(
                "{\"id\":\"" + put[0] + "\",\"v\":" + put[1] + "}"))).statusCode());
        }
        assertEquals(204, send(at("/items/k3").DELETE()).statusCode());

        final HttpResponse<String> list = send(at("/items"));
        assertEquals(200, list.statusCode());
        assertEquals("application/json", list.headers().firstValue("content-type").orElse(null));
        final String body = list.body();
        assertTrue(body.startsWith("{\"data\":[") && body.endsWith("]}"), body);
        final Set<String> items = Set.of(body.substring(9, body.length() - 2).split(",(?=\\{)"));
        assertEquals(Set.of("{\"id\":\"k1\",\"v\":1}", "{\"id\":\"k2\",\"v\":22}"), items);
        new com.fasterxml.jackson.databind.ObjectMapper().readTree(body);
    }

    @Test
    void shouldAnswer304AfterTheWaitOrTheNewStateAsSoonAsItChanges(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(2);
        start(kafka, topics, topic);
        assertEquals(204, send(at("/items/e1").PUT(HttpRequest.BodyPublishers.ofString("one"))).statusCode());
        final HttpResponse<String> first = send(at("/items/e1"));
        final String etag = first.headers().firstValue("etag").orElseThrow();

        final HttpResponse<String> unchanged = send(at("/items/e1").header("if-none-match", etag));
        assertEquals(304, unchanged.statusCode(), "no wait asked: at once");

        // a record of another key does not change this item
        assertEquals(204, send(at("/items/other").PUT(HttpRequest.BodyPublishers.ofString("x"))).statusCode());
        final long start = System.nanoTime();
        final HttpResponse<String> waited = send(at("/items/e1").header("if-none-match", etag).header("prefer", "wait=2"));
        final long waitedMillis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(304, waited.statusCode());
        assertEquals(etag, waited.headers().firstValue("etag").orElse(null));
        assertTrue(waitedMillis >= 1_900 && waitedMillis < 8_000, "waited " + waitedMillis + " ms");

        final CompletableFuture<HttpResponse<String>> polling = client.sendAsync(at("/items/e1")
            .header("if-none-match", etag).header("prefer", "wait=20").timeout(TIMEOUT).build(),
            HttpResponse.BodyHandlers.ofString());
        Thread.sleep(1_000);
        final long changedAt = System.nanoTime();
        assertEquals(204, send(at("/items/e1").PUT(HttpRequest.BodyPublishers.ofString("two"))).statusCode());
        final HttpResponse<String> changed = polling.get();
        assertEquals(200, changed.statusCode());
        assertEquals("two", changed.body());
        assertNotEquals(etag, changed.headers().firstValue("etag").orElse(null));
        assertTrue((System.nanoTime() - changedAt) / 1_000_000 < 10_000, "woken by the change, not the wait");
    }

    @Test
    void shouldAnswerWithTheReplySyncAndAsync(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String requests = topics.create(2);
        final String responses = topics.create(2);
        start(kafka, topics.create(), requests, responses);
        try (HttpKafkaTesting.Responder responder = new HttpKafkaTesting.Responder(kafka, requests))
        {
            final HttpResponse<String> sync = send(at("/requests/r1").header("idempotency-key", "k-1")
                .POST(HttpRequest.BodyPublishers.ofString("hello")));
            assertEquals(201, sync.statusCode(), sync.body());
            assertEquals("HELLO", sync.body());
            assertEquals("text/plain", sync.headers().firstValue("content-type").orElse(null));

            final HttpResponse<String> async = send(at("/requests/r2").header("prefer", "respond-async")
                .POST(HttpRequest.BodyPublishers.ofString("later")));
            assertEquals(202, async.statusCode(), async.body());
            final String location = async.headers().firstValue("location").orElseThrow();
            assertTrue(location.matches("/requests/r2;cid=[0-9a-f]{32}"), location);
            final HttpResponse<String> reply = send(at(location).header("prefer", "wait=10"));
            assertEquals(201, reply.statusCode());
            assertEquals("LATER", reply.body());

            final HttpResponse<String> unknown = send(at("/requests/r2;cid=0123456789abcdef0123456789abcdef"));
            assertEquals(202, unknown.statusCode(), "no reply for that correlation id (yet)");
        }
        final List<ConsumerRecord<byte[], byte[]>> produced = records(kafka, requests, 2);
        assertEquals(2, produced.size());
        assertEquals(responses, header(produced.get(0), "zilla:reply-to"));
    }

    @Test
    void shouldProduceOnceForOneIdempotencyKeyAndRequest(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String requests = topics.create(2);
        final String responses = topics.create(2);
        start(kafka, topics.create(), requests, responses);
        try (HttpKafkaTesting.Responder responder = new HttpKafkaTesting.Responder(kafka, requests))
        {
            // two at once, then 98 retries
            final List<CompletableFuture<HttpResponse<String>>> atOnce = new ArrayList<>();
            for (int i = 0; i < 2; i++)
            {
                atOnce.add(client.sendAsync(at("/requests/same").header("idempotency-key", "key-1")
                    .POST(HttpRequest.BodyPublishers.ofString("body")).timeout(TIMEOUT).build(),
                    HttpResponse.BodyHandlers.ofString()));
            }
            for (CompletableFuture<HttpResponse<String>> response : atOnce)
            {
                assertEquals(201, response.get().statusCode());
                assertEquals("BODY", response.get().body());
            }
            for (int i = 0; i < 98; i++)
            {
                final HttpResponse<String> retry = send(at("/requests/same").header("idempotency-key", "key-1")
                    .POST(HttpRequest.BodyPublishers.ofString("body")));
                assertEquals(201, retry.statusCode());
            }
            final HttpResponse<String> other = send(at("/requests/same").header("idempotency-key", "key-1")
                .header("prefer", "respond-async").POST(HttpRequest.BodyPublishers.ofString("another body")));
            assertEquals(202, other.statusCode());
        }
        final List<ConsumerRecord<byte[], byte[]>> produced = records(kafka, requests, 2);
        assertEquals(2, produced.size(), "one record per distinct request");
        final Set<String> correlations = produced.stream().map(r -> header(r, "zilla:correlation-id"))
            .collect(Collectors.toSet());
        assertEquals(2, correlations.size(), "another body, another correlation id");
    }

    @Test
    void shouldServeAHundredConcurrentStreamsOnOneH2cConnection(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(4);
        start(kafka, topics, topic);
        final HttpClient h2c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(TIMEOUT).build();
        // the first request upgrades the connection (h2c), the others are its streams
        final HttpResponse<String> upgrade = h2c.send(at("/items/none").timeout(TIMEOUT).build(),
            HttpResponse.BodyHandlers.ofString());
        assertEquals(HttpClient.Version.HTTP_2, upgrade.version());
        final List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            responses.add(h2c.sendAsync(at("/items/h" + i).PUT(HttpRequest.BodyPublishers.ofString("value-" + i))
                .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> response : responses)
        {
            assertEquals(204, response.get().statusCode());
            assertEquals(HttpClient.Version.HTTP_2, response.get().version());
        }
        final List<CompletableFuture<HttpResponse<String>>> reads = new ArrayList<>();
        for (int i = 0; i < 100; i++)
        {
            reads.add(h2c.sendAsync(at("/items/h" + i).timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < 100; i++)
        {
            assertEquals("value-" + i, reads.get(i).get().body());
        }
        final List<ConsumerRecord<byte[], byte[]>> records = records(kafka, topic, 100);
        assertEquals(100, records.size());
        assertNotNull(records.get(0).key());
    }

    @Test
    void shouldWriteAnEmptyBodyOnlyInItsTurnWhileAnotherRecordIsHalfWritten(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        // one worker, so that both connections share its producer: the first sends half of its body (its record is
        // under way, fragment by fragment), the second a PUT with content-length: 0, which must wait for its turn
        // rather than put its record between the first one's fragments
        engine.workers(1);
        final String topic = topics.create();
        start(kafka, topics, topic);
        final URI uri = URI.create(base);
        final byte[] value = new byte[64 * 1024];
        new Random(5).nextBytes(value);
        try (Socket first = new Socket(uri.getHost(), uri.getPort());
             Socket second = new Socket(uri.getHost(), uri.getPort()))
        {
            first.setSoTimeout((int) TIMEOUT.toMillis());
            second.setSoTimeout((int) TIMEOUT.toMillis());
            final OutputStream out = first.getOutputStream();
            out.write(("PUT /items/half HTTP/1.1\r\nhost: localhost\r\ncontent-length: " + value.length + "\r\n\r\n")
                .getBytes(UTF_8));
            out.write(value, 0, value.length / 2);
            out.flush();
            Thread.sleep(500);
            second.getOutputStream().write("PUT /items/empty HTTP/1.1\r\nhost: localhost\r\ncontent-length: 0\r\n\r\n"
                .getBytes(UTF_8));
            second.getOutputStream().flush();
            Thread.sleep(500);
            out.write(value, value.length / 2, value.length - value.length / 2);
            out.flush();
            assertTrue(statusLine(first).startsWith("HTTP/1.1 204"));
            assertTrue(statusLine(second).startsWith("HTTP/1.1 204"));
        }
        final List<ConsumerRecord<byte[], byte[]>> records = records(kafka, topic, 2);
        assertEquals(2, records.size());
        assertEquals("half", new String(records.get(0).key(), UTF_8), "the record under way first");
        assertArrayEquals(value, records.get(0).value());
        assertEquals("empty", new String(records.get(1).key(), UTF_8));
        assertArrayEquals(new byte[0], records.get(1).value());
    }

    private static String statusLine(Socket socket) throws IOException
    {
        final InputStream in = socket.getInputStream();
        final StringBuilder line = new StringBuilder();
        for (int b = in.read(); b != -1 && b != '\n'; b = in.read())
        {
            line.append((char) b);
        }
        return line.toString();
    }

    @Test
    void shouldProduceOneMebibyteValuesOverHttp11ChunkedAndWithALengthAndOverH2c(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.name();
        try (Admin admin = kafka.admin())
        {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1)
                .configs(Map.of("max.message.bytes", Integer.toString(4 << 20))))).all().get(30, TimeUnit.SECONDS);
        }
        start(kafka, topic, topics.create(), topics.create(), 2 << 20);
        final byte[][] values = new byte[4][1 << 20];
        for (int i = 0; i < values.length; i++)
        {
            new Random(i).nextBytes(values[i]);
        }
        final int index = 0;
        assertEquals(204, send(at("/items/large-0").PUT(HttpRequest.BodyPublishers.ofByteArray(values[0]))).statusCode(),
            "HTTP/1.1 with a content-length: streamed " + index);
        assertEquals(204, send(at("/items/large-1").PUT(HttpRequest.BodyPublishers.ofInputStream(
            () -> new ByteArrayInputStream(values[1])))).statusCode(), "HTTP/1.1 chunked: gathered");
        final HttpClient h2c = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2).connectTimeout(TIMEOUT).build();
        h2c.send(at("/items/none").timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
        final List<CompletableFuture<HttpResponse<String>>> both = new ArrayList<>();
        for (int i = 2; i < 4; i++)
        {
            both.add(h2c.sendAsync(at("/items/large-" + i).PUT(HttpRequest.BodyPublishers.ofByteArray(values[i]))
                .timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString()));
        }
        for (CompletableFuture<HttpResponse<String>> response : both)
        {
            assertEquals(204, response.get().statusCode());
            assertEquals(HttpClient.Version.HTTP_2, response.get().version());
        }
        final List<ConsumerRecord<byte[], byte[]>> records = records(kafka, topic, 4);
        assertEquals(4, records.size());
        for (ConsumerRecord<byte[], byte[]> record : records)
        {
            final int i = Integer.parseInt(new String(record.key(), UTF_8).substring("large-".length()));
            assertArrayEquals(values[i], record.value(), "value " + i + " byte for byte");
        }
    }

    @Test
    void shouldAnswer502WithAnEventForAnUnknownTopic(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        start(kafka, topics, topics.name());
        final HttpResponse<String> put = send(at("/items/u").PUT(HttpRequest.BodyPublishers.ofString("v")));
        assertEquals(502, put.statusCode());
        final HttpResponse<String> get = send(at("/items/u"));
        assertEquals(502, get.statusCode());
        final long deadline = System.currentTimeMillis() + 10_000;
        while (engine.events().stream().filter(e -> "http-kafka.topic.unknown".equals(e.event())).count() < 2
            && System.currentTimeMillis() < deadline)
        {
            // the events reach the log a moment after the answers
            Thread.sleep(50);
        }
        assertEquals(List.of("PUT", "GET"), engine.events().stream().filter(e -> "http-kafka.topic.unknown".equals(e.event()))
            .map(e -> e.detail().split(" ")[0]).toList(), engine.events().toString());
    }
}
