/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.kafka.tls;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.EARLIEST;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.fetchBeginEx;
import static io.zilla.bindings.kafka.test.KafkaFetchStreams.records;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceBeginEx;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceDataEx;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import io.zilla.bindings.kafka.test.KafkaFetchStreams.Fetched;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kafka client binding through a tls client: app streams (the engine's test binding) -> kafka client -> tls
 * client (trusting the embedded broker's CA from a filesystem vault) -> tcp client -> the broker's SSL listener
 * ({@link EmbeddedKafka#withSsl()}); what it writes and reads is checked with kafka-clients over SSL.
 */
class KafkaClientOverTlsTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    // a bound for the produce stream's own retries (about 55 s of backoff), with room for a slow host
    private static final Duration GIVE_UP = Duration.ofMinutes(3);
    private static final int WHOLE = 0x03;
    private static final int RECORDS = 200;

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.withSsl();

    @TempDir
    static Path keys;

    // only its CA that signed nothing the broker has (stranger.crt) is used here
    static ProxyCertificates stranger;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientOverTlsTest.class);

    @BeforeAll
    static void makeKeys() throws Exception
    {
        stranger = ProxyCertificates.make(keys, "stranger.localhost");
    }

    @Test
    void shouldProduceThroughTlsAndReadBackOverSsl(EmbeddedKafka kafka, KafkaTopics topics)
    {
        final String topic = topics.create(2);
        final TestClient app = start(kafka, "app");

        final List<TestStream> streams = List.of(
            app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS)),
            app.open(produceBeginEx(topic, 1, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS)));
        final long timestamp = System.currentTimeMillis();
        for (int i = 0; i < RECORDS; i++)
        {
            app.send(streams.get(i % 2), ("value-" + i).getBytes(UTF_8),
                produceDataEx(0, timestamp, ("key-" + i).getBytes(UTF_8), List.of()), WHOLE);
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

        final List<ConsumerRecord<String, String>> consumed = consumeOverSsl(kafka, topic, RECORDS);
        assertEquals(RECORDS, consumed.size());
        for (int partition = 0; partition < 2; partition++)
        {
            final int p = partition;
            final List<String> expected = new ArrayList<>();
            for (int i = partition; i < RECORDS; i += 2)
            {
                expected.add("key-" + i + "=value-" + i);
            }
            assertEquals(expected, consumed.stream().filter(r -> r.partition() == p)
                .map(r -> r.key() + "=" + r.value()).collect(Collectors.toList()), "partition " + p + " in order");
        }
        assertTrue(counter(engine.directory(), "tls_client", "handshakes") >= 2,
            "the bootstrap and the node connections were TLS");
    }

    @Test
    void shouldFetchThroughTlsWhatKafkaClientsProducedOverSsl(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(1);
        final List<String> values = new ArrayList<>();
        final Map<String, Object> config = kafka.sslClientConfig();
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config, new StringSerializer(),
            new StringSerializer()))
        {
            for (int i = 0; i < RECORDS; i++)
            {
                values.add(String.format("value-%03d", i));
                producer.send(new ProducerRecord<>(topic, 0, String.format("key-%03d", i), values.get(i)));
            }
            producer.flush();
        }

        final TestClient app = start(kafka, "app");
        final TestStream stream = app.open(fetchBeginEx(topic, 0, EARLIEST));
        stream.await(WAIT, () -> stream.reset() || records(stream).size() >= RECORDS);
        assertFalse(stream.reset(), () -> "reset with " + resetError(stream) + ", events " + engine.events());

        final List<Fetched> fetched = records(stream);
        assertEquals(RECORDS, fetched.size());
        for (int i = 0; i < RECORDS; i++)
        {
            assertEquals(i, fetched.get(i).offset());
            assertEquals(String.format("key-%03d", i), fetched.get(i).key());
        }
        // every value is 9 bytes: the payload is their concatenation, in offset order
        assertEquals(String.join("", values), new String(stream.received(), UTF_8));
    }

    @Test
    void shouldResetTheStreamsOfABrokerWhoseCertificateTheVaultDoesNotTrust(EmbeddedKafka kafka, KafkaTopics topics)
        throws Exception
    {
        final String topic = topics.create(1);
        final TestClient app = start(kafka, "app_untrusted");

        final TestStream stream = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));

        // every connection attempt fails its handshake, at once, saying why
        final List<EngineEvent> failed = awaitEvents("tls.handshake.failed");
        assertFalse(failed.isEmpty(), engine.events()::toString);
        assertEquals("tls_client_untrusted", failed.get(0).binding(), failed.get(0)::toString);
        assertTrue(failed.get(0).detail().contains("PKIX"), failed.get(0)::detail);

        // the PRODUCE stream treats it as a lost connection (NETWORK_EXCEPTION): it looks the leader up again on its
        // backoff (100 ms doubling to 2 s), 30 rounds (about 55 s), then resets with that error
        stream.await(GIVE_UP, stream::reset);
        assertTrue(stream.reset(), stream.frames()::toString);
        assertEquals((short) 13, resetError(stream), stream.frames()::toString);
        assertTrue(stream.frames().stream().noneMatch(f -> f.startsWith("BEGIN")), stream.frames()::toString);
        assertTrue(counter(engine.directory(), "tls_client_untrusted", "handshakes.failed") >= 2);
        assertEquals(counter(engine.directory(), "tls_client_untrusted", "handshakes.failed"),
            counter(engine.directory(), "tls_client_untrusted", "handshakes.failed.certificate"), "each for the certificate");
        assertEquals(0, counter(engine.directory(), "tls_client_untrusted", "handshakes"));
    }

    private TestClient start(EmbeddedKafka kafka, String app)
    {
        engine.env("BROKER_CA", kafka.caCertificate().toString())
            .env("STRANGER_CA", stranger.strangerCertificate.toString())
            .env("KAFKA_BOOTSTRAP", kafka.sslBootstrapServers())
            .start("client.tls.yaml");
        return TestBinding.client(app);
    }

    private static List<ConsumerRecord<String, String>> consumeOverSsl(EmbeddedKafka kafka, String topic, int count)
    {
        final Map<String, Object> config = kafka.sslClientConfig();
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        final List<ConsumerRecord<String, String>> consumed = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
            new StringDeserializer()))
        {
            final List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(p -> new TopicPartition(topic, p.partition())).collect(Collectors.toList());
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (consumed.size() < count && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(500)).forEach(consumed::add);
            }
        }
        return consumed;
    }

    private List<EngineEvent> awaitEvents(String name) throws InterruptedException
    {
        final long deadline = System.nanoTime() + WAIT.toNanos();
        List<EngineEvent> events = List.of();
        while (events.isEmpty() && System.nanoTime() < deadline)
        {
            Thread.sleep(20);
            events = engine.events().stream().filter(e -> name.equals(e.event())).toList();
        }
        return events;
    }
}
