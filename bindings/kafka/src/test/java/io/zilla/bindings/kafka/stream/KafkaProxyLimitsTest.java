/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaProxyFixture.LOOPBACK;
import static io.zilla.bindings.kafka.test.RawSockets.readOrClosed;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The kafka proxy's {@code options.limits} against raw sockets, while a kafka-clients producer (and a consumer) on
 * other connections of the same proxy keep working: a request over {@code request-max-bytes} is refused at once, one
 * that is not whole after {@code request-timeout} closes its connection (even while it trickles in), and one that
 * would take the requests still arriving over {@code partial-requests-max-bytes} is refused until others finish.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyLimitsTest
{
    private static final int REQUEST_MAX_BYTES = 1024 * 1024;
    private static final int REQUEST_TIMEOUT = 2_000;
    private static final int PARTIAL_REQUESTS_MAX_BYTES = 3 * REQUEST_MAX_BYTES + REQUEST_MAX_BYTES / 2;
    private static final int PARTITIONS = 2;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);
    private final ExecutorService executor = Executors.newSingleThreadExecutor();
    private final AtomicBoolean producing = new AtomicBoolean(true);
    private final AtomicInteger acks = new AtomicInteger();
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void stop() throws Exception
    {
        producing.set(false);
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
        for (Socket socket : sockets)
        {
            socket.close();
        }
    }

    @Test
    void shouldRefuseARequestOverTheDefaultMaximum(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.name();
        final Future<Set<String>> produced = produce(topic, kafka);

        try (Socket socket = connect())
        {
            // Kafka's socket.request.max.bytes: 104857600
            new DataOutputStream(socket.getOutputStream()).writeInt(104_857_601);
            assertEquals(-1, readOrClosed(socket.getInputStream()), "the proxy closes the connection");
        }
        assertTrue(proxy.awaitEvent("kafka.request.oversized", 10));
        assertTrue(eventDetail("kafka.request.oversized").contains("a request of 104857601 bytes, over limits.request-max-bytes"
            + " (104857600)"), engine.events().toString());
        assertProducerAndConsumerWork(topic, produced);
    }

    @Test
    void shouldRefuseARequestOverItsMaximum(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        startLimited(kafka);
        final String topic = topics.name();
        final Future<Set<String>> produced = produce(topic, kafka);

        try (Socket socket = connect())
        {
            startRefusedRequest(socket, REQUEST_MAX_BYTES + 1, 0);
            assertEquals(-1, readOrClosed(socket.getInputStream()), "the proxy closes the connection");
        }
        assertTrue(proxy.awaitEvent("kafka.request.oversized", 10));
        try (Socket socket = connect())
        {
            // the largest allowed is not refused: the proxy took it as a partial request, and it waits for the rest
            // of its bytes
            startRequest(socket, REQUEST_MAX_BYTES, 1024);
            awaitCounter("requests.partial", 1);
            socket.setSoTimeout(500);
            assertThrows(SocketTimeoutException.class, () -> socket.getInputStream().read());
        }
        assertEquals(1, proxy.eventCount("kafka.request.oversized"));
        assertEquals(1L, counter(engine.directory(), "north_kafka_proxy", "requests.oversized"));
        assertProducerAndConsumerWork(topic, produced);
    }

    @Test
    void shouldCloseARequestNotWholeInTimeEvenWhileItTrickles(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        startLimited(kafka);
        final String topic = topics.name();
        final Future<Set<String>> produced = produce(topic, kafka);

        try (Socket stalled = connect(); Socket trickling = connect())
        {
            final long started = System.nanoTime();
            // 100 KiB declared, 1 KiB sent; and a byte of another every 200 ms: never idle, never whole
            startRequest(stalled, 100 * 1024, 1024);
            startRequest(trickling, 100 * 1024, 0);
            final OutputStreamTrickle trickle = new OutputStreamTrickle(trickling);
            trickle.start();
            assertEquals(-1, readOrClosed(stalled.getInputStream()), "the stalled request's connection is closed");
            final long stalledAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            assertEquals(-1, readOrClosed(trickling.getInputStream()), "the trickling request's connection is closed");
            final long tricklingAfter = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
            trickle.interrupt();

            assertTrue(stalledAfter >= REQUEST_TIMEOUT - 100 && stalledAfter < 3 * REQUEST_TIMEOUT, "after " + stalledAfter);
            assertTrue(tricklingAfter >= REQUEST_TIMEOUT - 100 && tricklingAfter < 3 * REQUEST_TIMEOUT, "after "
                + tricklingAfter + " ms, " + trickle.written.get() + " bytes trickled");
            assertTrue(trickle.written.get() >= 5, trickle.written.get() + " bytes trickled");
        }
        assertTrue(proxy.awaitEvents("kafka.request.timeout", 2, 10));
        assertTrue(eventDetail("kafka.request.timeout").contains("a request of 102400 bytes was not whole after "
            + "limits.request-timeout (2000 ms), connection closed"), engine.events().toString());
        assertEquals(2L, counter(engine.directory(), "north_kafka_proxy", "requests.timedout"));
        assertProducerAndConsumerWork(topic, produced);
    }

    @Test
    void shouldRefuseRequestsOverThePartialBoundUntilOthersFinish(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        startLimited(kafka);
        final String topic = topics.name();
        final Future<Set<String>> produced = produce(topic, kafka);

        // three of the largest requests, stalled: 3 MiB of the 3.5 MiB, all counted before the fourth comes
        for (int i = 0; i < 3; i++)
        {
            final Socket stalled = connect();
            sockets.add(stalled);
            startRequest(stalled, REQUEST_MAX_BYTES, 1024);
        }
        awaitCounter("requests.partial", 3);
        try (Socket fourth = connect())
        {
            startRefusedRequest(fourth, REQUEST_MAX_BYTES, 1024);
            final long started = System.nanoTime();
            assertEquals(-1, readOrClosed(fourth.getInputStream()), "the fourth is refused");
            assertTrue(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started) < REQUEST_TIMEOUT, "at once, not timed out");
        }
        assertTrue(proxy.awaitEvent("kafka.request.refused", 10));
        assertTrue(eventDetail("kafka.request.refused").contains("a request of 1048576 bytes would take the requests still "
            + "arriving over limits.partial-requests-max-bytes (3670016), connection closed"), engine.events().toString());

        // once the three time out, their bytes are free again
        assertTrue(proxy.awaitEvents("kafka.request.timeout", 3, 10));
        try (Socket fifth = connect())
        {
            startRequest(fifth, REQUEST_MAX_BYTES, 1024);
            // taken as a partial request (the refused fourth was not): the fifth is let through
            awaitCounter("requests.partial", 4);
            fifth.setSoTimeout(500);
            assertThrows(SocketTimeoutException.class, () -> fifth.getInputStream().read(), "the fifth is let through");
        }
        assertEquals(1, proxy.eventCount("kafka.request.refused"));
        assertEquals(1L, counter(engine.directory(), "north_kafka_proxy", "requests.refused"));
        assertProducerAndConsumerWork(topic, produced);
    }

    private void startLimited(EmbeddedKafka kafka)
    {
        proxy.start(kafka.bootstrapServers(), "proxy.limits.yaml", Map.of(
            "REQUEST_MAX_BYTES", String.valueOf(REQUEST_MAX_BYTES),
            "REQUEST_TIMEOUT", String.valueOf(REQUEST_TIMEOUT),
            "PARTIAL_REQUESTS_MAX_BYTES", String.valueOf(PARTIAL_REQUESTS_MAX_BYTES)));
    }

    private Socket connect() throws IOException
    {
        final Socket socket = new Socket(LOOPBACK, proxy.bootstrapPort());
        socket.setSoTimeout(15_000);
        return socket;
    }

    // a Metadata v4 request that declares size bytes and sends its header and then body bytes of it, in one write
    private static void startRequest(Socket socket, int size, int body) throws IOException
    {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(size);
        out.writeShort(3);
        out.writeShort(4);
        out.writeInt(42);
        out.writeShort(1);
        out.writeByte('r');
        out.write(new byte[body]);
        socket.getOutputStream().write(bytes.toByteArray());
        socket.getOutputStream().flush();
    }

    // the same for a request the proxy refuses as soon as it reads its length: a write it already closed is no error
    private static void startRefusedRequest(Socket socket, int size, int body) throws IOException
    {
        try
        {
            startRequest(socket, size, body);
        }
        catch (SocketException ex)
        {
            // reset by the proxy before the bytes were all written
        }
    }

    private String eventDetail(String name)
    {
        return engine.events().stream().filter(event -> name.equals(event.event())).findFirst().orElseThrow().detail();
    }

    // the producer sends until stopped, each record acknowledged before the next; then a consumer reads them back
    private Future<Set<String>> produce(String topic, EmbeddedKafka kafka) throws Exception
    {
        kafka.createTopic(topic, PARTITIONS);
        final Future<Set<String>> produced = executor.submit(() ->
        {
            final Set<String> values = new HashSet<>();
            try (KafkaProducer<String, String> producer = new KafkaProducer<>(proxy.clientConfig(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))))
            {
                for (int i = 0; producing.get(); i++)
                {
                    producer.send(new ProducerRecord<>(topic, i % PARTITIONS, "key", "value-" + i)).get(30, TimeUnit.SECONDS);
                    values.add("value-" + i);
                    acks.incrementAndGet();
                    Thread.sleep(20);
                }
            }
            return values;
        });
        awaitAcks(1);
        return produced;
    }

    private void assertProducerAndConsumerWork(String topic, Future<Set<String>> produced)
        throws Exception
    {
        awaitAcks(acks.get() + 10);
        producing.set(false);
        final Set<String> values = produced.get(60, TimeUnit.SECONDS);
        final Set<String> consumed = new HashSet<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(proxy.clientConfig(Map.of(
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
            ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
            ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))))
        {
            final List<TopicPartition> partitions = new ArrayList<>();
            for (int partition = 0; partition < PARTITIONS; partition++)
            {
                partitions.add(new TopicPartition(topic, partition));
            }
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (consumed.size() < values.size() && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200)))
                {
                    consumed.add(record.value());
                }
            }
        }
        assertEquals(values, consumed, "the consumer reads every acknowledged record through the proxy");
        assertEquals(0, proxy.eventCount("engine.stream.failed"), engine.events().toString());
    }

    // waits until the proxy's counter reaches value (the producer's requests arrive whole: they add nothing to it)
    private void awaitCounter(String name, long value) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        long current = counter(engine.directory(), "north_kafka_proxy", name);
        while (current < value && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
            current = counter(engine.directory(), "north_kafka_proxy", name);
        }
        assertTrue(current >= value, name + ": " + current + " of " + value);
    }

    private void awaitAcks(int count) throws InterruptedException
    {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (acks.get() < count && System.nanoTime() < deadline)
        {
            Thread.sleep(10);
        }
        assertTrue(acks.get() >= count, "the producer got " + acks.get() + " of " + count + " acknowledgements");
    }

    // writes one byte every 200 ms until interrupted or the connection fails
    private static final class OutputStreamTrickle extends Thread
    {
        private final Socket socket;
        private final AtomicInteger written = new AtomicInteger();

        OutputStreamTrickle(Socket socket)
        {
            super("trickle");
            this.socket = socket;
            setDaemon(true);
        }

        @Override
        public void run()
        {
            try
            {
                while (!isInterrupted())
                {
                    Thread.sleep(200);
                    socket.getOutputStream().write(0);
                    socket.getOutputStream().flush();
                    written.incrementAndGet();
                }
            }
            catch (IOException | InterruptedException ex)
            {
                // closed by the proxy, or stopped
            }
        }
    }
}
