/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.zilla.bindings.tcp.TcpBindingFactory;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The SASL mechanisms a kafka client accepts: Kafka's SCRAM is SHA-256 and SHA-512 only, there is no SCRAM-SHA-1. */
class KafkaSaslConfigTest
{
    private final ConfigReader reader;

    KafkaSaslConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "kafka", new KafkaBindingFactory().create(configuration),
            "tcp", new TcpBindingFactory().create(configuration));
        this.reader = new ConfigReader(bindings, name -> null);
    }

    @ParameterizedTest
    @ValueSource(strings = {"scram-sha-1", "SCRAM-SHA-256", "gssapi", "oauthbearer"})
    void shouldRefuseAMechanismKafkaClientsCannotUseHere(String mechanism)
    {
        final List<ConfigError> errors = assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  servers:
                    - localhost:9092
                  sasl:
                    mechanism: %s
                    username: alice
                    password: secret
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """.formatted(mechanism), 1)).errors();

        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.kafka_client.options.sasl.mechanism", errors.get(0).path(), errors.toString());
        assertTrue(errors.get(0).message().contains("plain, scram-sha-256, scram-sha-512"), errors.toString());
    }
}
