/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaClientStreams.metaBeginEx;
import static io.zilla.bindings.kafka.test.KafkaClientStreams.resetError;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;

import io.zilla.engine.internal.event.EngineEvent;
import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.TestBinding;
import io.zilla.engine.test.TestStream;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A mechanism the broker does not enable: its SASL listener has SCRAM-SHA-256 only, the binding asks for PLAIN. */
class KafkaClientSaslUnsupportedTest
{
    private static final Duration WAIT = Duration.ofSeconds(30);

    private static EmbeddedKafka kafka;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(KafkaClientSaslUnsupportedTest.class);

    @BeforeAll
    static void startBroker()
    {
        kafka = new EmbeddedKafka()
            .scramCredential("SCRAM-SHA-256", "bob", "bob-secret")
            .start();
    }

    @AfterAll
    static void stopBroker()
    {
        kafka.close();
    }

    @Test
    void shouldResetWhenTheBrokerDoesNotEnableTheMechanism()
    {
        engine.env("KAFKA_BOOTSTRAP", kafka.saslBootstrapServers())
            .env("SASL_MECHANISM", "plain")
            .env("SASL_USERNAME", "bob")
            .env("SASL_PASSWORD", "bob-secret")
            .start("client.sasl.yaml");

        final TestStream stream = TestBinding.client("app").open(metaBeginEx("any"));
        stream.await(WAIT, stream::reset);

        assertEquals(Short.valueOf((short) 58), resetError(stream), "SASL_AUTHENTICATION_FAILED");
        stream.await(WAIT, () -> !events().isEmpty());
        final String detail = events().get(0).detail();
        assertTrue(detail.contains("the broker does not enable PLAIN, only [SCRAM-SHA-256]"), detail);
    }

    private List<EngineEvent> events()
    {
        return engine.events().stream().filter(e -> e.event().equals("kafka.sasl.failed")).toList();
    }
}
