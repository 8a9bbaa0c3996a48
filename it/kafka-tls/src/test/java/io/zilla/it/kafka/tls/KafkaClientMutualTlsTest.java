/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.kafka.tls;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceBeginEx;
import static io.zilla.bindings.kafka.test.KafkaProduceStreams.produceDataEx;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Mutual TLS: the kafka client binding through a tls client that presents the client key the embedded broker made
 * ({@link EmbeddedKafka#withMutualTls()}: {@code ssl.client.auth=required}), from a filesystem vault; read back with
 * kafka-clients presenting the same key. A broker of its own: the shared one does not ask for client certificates.
 */
class KafkaClientMutualTlsTest
{
    private static final Duration WAIT = Duration.ofSeconds(60);
    private static final int WHOLE = 0x03;
    private static final int RECORDS = 50;

    private static EmbeddedKafka kafka;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientMutualTlsTest.class);

    @BeforeAll
    static void startBroker()
    {
        kafka = new EmbeddedKafka().withSsl().withMutualTls().start();
    }

    @AfterAll
    static void stopBroker()
    {
        if (kafka != null)
        {
            kafka.close();
        }
    }

    @Test
    void shouldProduceWithTheClientsKey()
    {
        final String topic = "mutual-tls";
        kafka.createTopic(topic, 1);
        engine.env("CLIENT_KEYS", kafka.clientKeystore().toString())
            .env("CLIENT_KEYS_PASSWORD", kafka.sslPassword())
            .env("BROKER_CA", kafka.caCertificate().toString())
            .env("KAFKA_BOOTSTRAP", kafka.sslBootstrapServers())
            .start("client.mutual.yaml");
        final TestClient app = TestBinding.client("app");

        final TestStream stream = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        final List<String> expected = new ArrayList<>();
        for (int i = 0; i < RECORDS; i++)
        {
            app.send(stream, ("value-" + i).getBytes(UTF_8), produceDataEx(0, 0L, ("key-" + i).getBytes(UTF_8),
                List.of()), WHOLE);
            expected.add("key-" + i + "=value-" + i);
        }
        app.end(stream);
        stream.await(WAIT, () -> stream.ended() || stream.reset());
        assertFalse(stream.reset(), () -> "reset with " + resetError(stream) + ", events " + engine.events());
        assertEquals(stream.sequence(), stream.acknowledged(), "every record acknowledged");
        assertTrue(counter(engine.directory(), "tls_client", "handshakes") >= 2);

        final Map<String, Object> config = kafka.sslClientConfig();
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        final List<String> consumed = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
            new StringDeserializer()))
        {
            final TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (consumed.size() < RECORDS && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> consumed.add(r.key() + "=" + r.value()));
            }
        }
        assertEquals(expected, consumed);
    }
}
