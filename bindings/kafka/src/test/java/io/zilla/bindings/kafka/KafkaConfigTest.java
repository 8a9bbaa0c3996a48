/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import io.zilla.bindings.kafka.config.KafkaClientOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaOptionsConfig;
import io.zilla.bindings.tcp.TcpBindingFactory;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.BindingConfig;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.KindConfig;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.TestVault;
import io.zilla.specs.kafka.codec.RecordCompression;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** kafka's part of zilla.yaml, read by the engine's config reader: kind proxy and kind client, each with its options. */
class KafkaConfigTest
{
    private final ConfigReader reader;

    KafkaConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "kafka", new KafkaBindingFactory().create(configuration),
            "tcp", new TcpBindingFactory().create(configuration));
        // a vault type for the errors of a kafka binding that names a vault
        this.reader = new ConfigReader(bindings, Map.of("secrets", new TestVault("secrets")), name -> null);
    }

    @Test
    void shouldBindClientOptions()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  servers:
                    - broker1.internal:9092
                    - broker2.internal:9092
                  sasl:
                    mechanism: scram-sha-256
                    username: alice
                    password: secret
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """, 1);

        final BindingConfig client = config.binding("kafka_client");
        assertEquals(KindConfig.CLIENT, client.kind());
        final KafkaClientOptionsConfig options = (KafkaClientOptionsConfig) client.options();
        assertEquals(List.of("broker1.internal:9092", "broker2.internal:9092"), options.servers());
        assertEquals("scram-sha-256", options.sasl().mechanism());
        assertEquals("SCRAM-SHA-256", options.sasl().kafkaMechanism());
        assertEquals("alice", options.sasl().username());
        assertEquals("secret", options.sasl().password());
        assertFalse(options.sasl().toString().contains("secret"), "a password is never printed");
    }

    @Test
    void shouldBindClientOptionsWithoutSasl()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  servers: [ "localhost:9092" ]
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """, 1);

        final KafkaClientOptionsConfig options = (KafkaClientOptionsConfig) config.binding("kafka_client").options();
        assertEquals(List.of("localhost:9092"), options.servers());
        assertNull(options.sasl());
    }

    @ParameterizedTest
    @EnumSource(RecordCompression.class)
    void shouldBindClientCompression(RecordCompression compression)
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  servers:
                    - localhost:9092
                  compression: %s
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """.formatted(compression.name().toLowerCase(Locale.ROOT)), 1);
        final KafkaClientOptionsConfig options = (KafkaClientOptionsConfig) config.binding("kafka_client").options();
        assertEquals(compression, options.compression());
    }

    @Test
    void shouldDefaultClientCompressionToNone()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  servers:
                    - localhost:9092
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """, 1);
        final KafkaClientOptionsConfig options = (KafkaClientOptionsConfig) config.binding("kafka_client").options();
        assertEquals(RecordCompression.NONE, options.compression());
    }

    @Test
    void shouldReportAnUnknownClientCompressionWithLineColumnAndPath()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  servers:
                    - localhost:9092
                  compression: brotli
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """);

        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.kafka_client.options.compression", errors.get(0).path(), errors.toString());
        assertEquals(10, errors.get(0).line(), errors.toString());
        assertEquals(20, errors.get(0).column(), errors.toString());
    }

    @Test
    void shouldKeepBindingProxyOptions()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            bindings:
              kafka_proxy:
                type: kafka
                kind: proxy
                options:
                  bootstrap: [ "localhost:9092" ]
                  advertise:
                    host: localhost
                    bootstrap_port: 19092
                    ports:
                      "1": 19093
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """, 1);

        final KafkaOptionsConfig options = (KafkaOptionsConfig) config.binding("kafka_proxy").options();
        assertEquals(List.of("localhost:9092"), options.bootstrap());
        assertEquals(19093, options.ports().get(1));
    }

    @Test
    void shouldReportInvalidClientOptionsWithLineColumnAndPath()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  servers:
                    - localhost
                  sasl:
                    mechanism: gssapi
                    username: alice
                    password: secret
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """);

        assertEquals(2, errors.size(), errors.toString());
        assertEquals("bindings.kafka_client.options.servers[0]", errors.get(0).path(), errors.toString());
        assertEquals(9, errors.get(0).line(), errors.toString());
        assertTrue(errors.get(0).column() > 1, errors.toString());
        assertEquals("must be host:port, with a port from 1 to 65535", errors.get(0).message(), errors.toString());
        assertEquals("bindings.kafka_client.options.sasl.mechanism", errors.get(1).path(), errors.toString());
        assertEquals(11, errors.get(1).line(), errors.toString());
    }

    @Test
    void shouldRefuseAClientServerPortOutOfRangeAVaultAndRoutes()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            vaults:
              client:
                type: secrets
                options:
                  file: keys.p12
            bindings:
              kafka_client:
                type: kafka
                kind: client
                vault: client
                options:
                  servers:
                    - broker1.internal:65536
                    - broker2.internal:0
                routes:
                  - when:
                      - topic: items
                    exit: tcp_client
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """);

        assertEquals(List.of(
            "12:12 bindings.kafka_client.vault: a kafka binding uses no vault: TLS to the brokers, or from the clients, is a tls "
                + "binding beside it",
            "15:11 bindings.kafka_client.options.servers[0]: must be host:port, with a port from 1 to 65535",
            "16:11 bindings.kafka_client.options.servers[1]: must be host:port, with a port from 1 to 65535",
            "17:5 bindings.kafka_client.routes: a kafka binding of kind proxy or client has no routes: every stream goes to"
                + " its exit (routes by topic are for kinds cache_client and cache_server)"),
            errors.stream().map(error -> error.line() + ":" + error.column() + " " + error.path() + ": " + error.message())
                .toList());
    }

    @Test
    void shouldRefuseProxyOptionsOnAClientAndMissingServers()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  bootstrap: [ "localhost:9092" ]
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """);

        assertEquals(2, errors.size(), errors.toString());
        assertTrue(errors.stream().allMatch(e -> e.path().equals("bindings.kafka_client.options")), errors.toString());
        assertTrue(errors.get(0).message().contains("servers"), errors.toString());
        assertEquals(7, errors.get(0).line(), errors.toString());
        assertTrue(errors.get(1).message().contains("bootstrap"), errors.toString());
        assertEquals(8, errors.get(1).line(), errors.toString());
        assertEquals(7, errors.get(1).column(), errors.toString());
    }

    @Test
    void shouldSelectTheKafkaMetricsOfAKafkaBinding()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", """
            ---
            name: test
            telemetry:
              metrics:
                - kafka.*
            bindings:
              kafka_client:
                type: kafka
                kind: client
                options:
                  servers:
                    - broker1.internal:9092
                telemetry:
                  metrics:
                    - kafka.*
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """, 1);

        assertEquals(Set.of("kafka.produce.records", "kafka.produce.bytes", "kafka.produce.retries", "kafka.fetch.records",
            "kafka.fetch.bytes", "kafka.broker.connections", "kafka.request.duration", "kafka.cache.reads",
            "kafka.cache.fetched", "kafka.cache.lag"),
            config.binding("kafka_client").metrics());
        assertEquals(Set.of(), config.binding("tcp_client").metrics());
    }

    private List<ConfigError> errors(String yaml)
    {
        return assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1)).errors();
    }
}
