/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.counter;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaData;
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

import java.time.Duration;
import java.util.List;
import java.util.UUID;

import io.zilla.bindings.kafka.KafkaBinding;
import io.zilla.bindings.kafka.test.KafkaFetchStreams.Fetched;
import io.zilla.bindings.kafka.test.KafkaRecords;
import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestClient;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.specs.kafka.types.stream.KafkaAckMode;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The kafka client binding on a broker's SASL_PLAINTEXT listener: PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512, each
 * through META, PRODUCE and FETCH streams with the records read back by a KafkaConsumer; a wrong password; and the
 * re-authentication that the broker asks for with {@code connections.max.reauth.ms}.
 */
class KafkaClientSaslTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final int WHOLE = 0x03;
    private static final long REAUTH_MS = 4_000L;

    private static EmbeddedKafka kafka;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientSaslTest.class);

    @BeforeAll
    static void startBroker()
    {
        kafka = new EmbeddedKafka()
            .plainUser("alice", "alice-secret")
            .scramCredential("SCRAM-SHA-256", "bob", "bob-secret")
            .scramCredential("SCRAM-SHA-512", "carol", "carol-secret")
            // every session expires after a few seconds: a client that does not authenticate again is disconnected
            .property("connections.max.reauth.ms", REAUTH_MS)
            .start();
    }

    @AfterAll
    static void stopBroker()
    {
        kafka.close();
    }

    @ParameterizedTest
    @CsvSource({"plain, alice, alice-secret", "scram-sha-256, bob, bob-secret", "scram-sha-512, carol, carol-secret"})
    void shouldProduceAndFetchThroughEachMechanism(String mechanism, String username, String password)
    {
        final String topic = topic(mechanism);
        kafka.createTopic(topic, 2);
        final TestClient app = start(mechanism, username, password);

        final TestStream meta = app.open(metaBeginEx(topic));
        meta.await(WAIT, () -> !metaData(meta).isEmpty() || meta.reset());
        assertFalse(meta.reset(), () -> "reset with " + resetError(meta) + ", events " + engine.events());
        assertEquals(2, metaData(meta).get(0).size());

        final TestStream produce = app.open(produceBeginEx(topic, 1, -1L, (short) -1, KafkaAckMode.IN_SYNC_REPLICAS));
        for (int i = 0; i < 10; i++)
        {
            app.send(produce, ("value-" + i).getBytes(UTF_8), produceDataEx(0, 0L, ("key-" + i).getBytes(UTF_8), List.of()),
                WHOLE);
        }
        app.end(produce);
        produce.await(WAIT, () -> produce.ended() || produce.reset());
        assertFalse(produce.reset(), () -> "reset with " + resetError(produce) + ", events " + engine.events());

        final List<ConsumerRecord<String, String>> consumed = KafkaRecords.readAll(kafka.bootstrapServers(), topic, WAIT);
        assertEquals(10, consumed.size());
        for (int i = 0; i < 10; i++)
        {
            assertEquals("key-" + i, consumed.get(i).key());
            assertEquals("value-" + i, consumed.get(i).value());
            assertEquals(1, consumed.get(i).partition());
        }

        final TestStream fetch = app.open(fetchBeginEx(topic, 1, EARLIEST));
        fetch.await(WAIT, () -> records(fetch).size() >= 10 || fetch.reset());
        final List<Fetched> fetched = records(fetch);
        assertEquals(10, fetched.size(), () -> "events " + engine.events());
        assertEquals("key-9", fetched.get(9).key());
        assertTrue(new String(fetch.received(), UTF_8).endsWith("value-8value-9"));

        assertTrue(events("kafka.sasl.failed").isEmpty(), () -> "events " + engine.events());
        // bootstrap control, the leader's control (ListOffsets), produce and fetch: each authenticated, none lost
        assertEquals(4, counter(engine.directory(), "kafka_client", "connections.opened"));
    }

    @ParameterizedTest
    @CsvSource({"plain, alice", "scram-sha-256, bob", "scram-sha-512, carol"})
    void shouldResetOnAWrongPasswordAndLeaveAnotherBindingAlone(String mechanism, String username) throws Exception
    {
        final String topic = topic(mechanism);
        kafka.createTopic(topic, 1);
        final TestClient good = start(mechanism, username, username + "-secret");
        final TestClient wrong = TestBinding.client("app_wrong");

        final TestStream refused = wrong.open(metaBeginEx(topic));
        refused.await(WAIT, refused::reset);
        assertEquals(Short.valueOf((short) 58), resetError(refused), "SASL_AUTHENTICATION_FAILED");
        refused.await(WAIT, () -> !events("kafka.sasl.failed").isEmpty());
        final EngineEvent event = events("kafka.sasl.failed").get(0);
        assertTrue(event.detail().contains("bindings.kafka_wrong"), event::detail);
        assertTrue(event.detail().contains("user " + username), event::detail);
        assertTrue(event.detail().contains("Authentication failed"), () -> "the broker's message: " + event.detail());
        assertFalse(event.detail().contains("not-the-password"), event::detail);

        final TestStream produce = wrong.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.LEADER_ONLY));
        produce.await(WAIT, produce::reset);
        assertEquals(Short.valueOf((short) 58), resetError(produce));

        final TestStream meta = good.open(metaBeginEx(topic));
        meta.await(WAIT, () -> !metaData(meta).isEmpty() || meta.reset());
        assertFalse(meta.reset(), () -> "reset with " + resetError(meta) + ", events " + engine.events());

        // one attempt per stream that asked, no retry loop behind them
        Thread.sleep(1_000L);
        final long attempts = counter(engine.directory(), "kafka_wrong", "connections.opened");
        assertEquals(2, attempts, "connections of the refused binding: the META stream's, then the PRODUCE stream's");
        assertEquals(attempts, events("kafka.sasl.failed").size());
    }

    @Test
    void shouldAuthenticateAgainBeforeTheSessionExpires() throws Exception
    {
        final String topic = topic("reauth");
        kafka.createTopic(topic, 1);
        engine.property(KafkaBinding.CLIENT_METADATA_MAX_AGE, 500);
        final TestClient app = start("scram-sha-256", "bob", "bob-secret");

        // the META stream asks again every half second: its control connection lives through several sessions
        final TestStream meta = app.open(metaBeginEx(topic));
        final TestStream produce = app.open(produceBeginEx(topic, 0, -1L, (short) -1, KafkaAckMode.LEADER_ONLY));
        meta.await(WAIT, () -> !metaData(meta).isEmpty());
        final long until = System.currentTimeMillis() + 3 * REAUTH_MS;
        int sent = 0;
        while (System.currentTimeMillis() < until)
        {
            app.send(produce, ("value-" + sent).getBytes(UTF_8), produceDataEx(0, 0L, null, List.of()), WHOLE);
            sent++;
            Thread.sleep(200L);
        }
        app.end(produce);
        produce.await(WAIT, () -> produce.ended() || produce.reset());
        assertFalse(produce.reset(), () -> "reset with " + resetError(produce) + ", events " + engine.events());
        assertFalse(meta.reset());

        assertEquals(sent, KafkaRecords.readAll(kafka.bootstrapServers(), topic, WAIT).size());
        assertTrue(events("kafka.connection.closed").isEmpty(), () -> "no connection lost: " + engine.events());
        assertEquals(2, counter(engine.directory(), "kafka_client", "connections.opened"), "control and produce, kept");
        final long reauthentications = counter(engine.directory(), "kafka_client", "sasl.reauthentications");
        assertTrue(reauthentications >= 4, "each connection, every 3.4 to 3.8 s for 12 s: " + reauthentications);
        assertTrue(events("kafka.sasl.failed").isEmpty());
    }

    private TestClient start(String mechanism, String username, String password)
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.saslBootstrapServers())
            .env("SASL_MECHANISM", mechanism)
            .env("SASL_USERNAME", username)
            .env("SASL_PASSWORD", password)
            .start("client.sasl.yaml");
        return TestBinding.client("app");
    }

    private List<EngineEvent> events(String name)
    {
        return engine.events().stream().filter(e -> e.event().equals(name)).toList();
    }

    private static String topic(String prefix)
    {
        return "sasl-" + prefix + "-" + UUID.randomUUID();
    }
}
