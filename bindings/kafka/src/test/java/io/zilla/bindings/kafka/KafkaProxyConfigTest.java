/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.zilla.bindings.kafka.config.KafkaOptionsConfig;
import io.zilla.bindings.kafka.config.KafkaProxyLimits;
import io.zilla.bindings.kafka.config.KafkaSniConfig;
import io.zilla.bindings.tcp.TcpBindingFactory;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.binding.Binding;
import io.zilla.engine.config.ConfigError;
import io.zilla.engine.config.ConfigException;
import io.zilla.engine.config.ConfigReader;
import io.zilla.engine.config.NamespaceConfig;
import io.zilla.engine.config.TestVault;
import org.junit.jupiter.api.Test;

/** The kafka proxy's options in zilla.yaml: advertise in port mode and SNI mode, limits, and the errors of each. */
class KafkaProxyConfigTest
{
    private final ConfigReader reader;

    KafkaProxyConfigTest()
    {
        final EngineConfiguration configuration = new EngineConfiguration();
        final Map<String, Binding> bindings = Map.of(
            "kafka", new KafkaBindingFactory().create(configuration),
            "tcp", new TcpBindingFactory().create(configuration));
        // a vault type for the errors of a kafka binding that names a vault
        this.reader = new ConfigReader(bindings, Map.of("secrets", new TestVault("secrets")), name -> null);
    }

    @Test
    void shouldBindSniMode()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", proxy("""
                    sni:
                      bootstrap: bootstrap.kafka.example.com
                      broker: broker-{id}.kafka.example.com
                    port: 9093
            """), 1);

        final KafkaOptionsConfig options = (KafkaOptionsConfig) config.binding("kafka_proxy").options();
        assertEquals(List.of("broker1.internal:9092"), options.bootstrap());
        assertEquals(new KafkaSniConfig("bootstrap.kafka.example.com", "broker-{id}.kafka.example.com", 9093), options.sni());
        assertTrue(options.ports().isEmpty());
    }

    @Test
    void shouldBindPortModeWithoutSni()
    {
        final NamespaceConfig config = reader.read("zilla.yaml", proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
            """), 1);

        final KafkaOptionsConfig options = (KafkaOptionsConfig) config.binding("kafka_proxy").options();
        assertNull(options.sni());
        assertEquals("kafka.example.com", options.advertiseHost());
        assertEquals(9093, options.ports().get(1));
    }

    @Test
    void shouldReportABrokerPatternWithoutIdWithLineColumnAndPath()
    {
        final List<ConfigError> errors = errors(proxy("""
                    sni:
                      bootstrap: bootstrap.kafka.example.com
                      broker: broker.kafka.example.com
                    port: 9093
            """));

        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.kafka_proxy.options.advertise.sni.broker", errors.get(0).path(), errors.toString());
        assertEquals(13, errors.get(0).line(), errors.toString());
        assertEquals(19, errors.get(0).column(), errors.toString());
    }

    @Test
    void shouldReportSniWithoutPortAndMixedWithPortMode()
    {
        final List<ConfigError> errors = errors(proxy("""
                    sni:
                      bootstrap: bootstrap.kafka.example.com
                      broker: broker-{id}.kafka.example.com
                    ports:
                      "1": 9093
            """));

        assertEquals(2, errors.size(), errors.toString());
        assertEquals("bindings.kafka_proxy.options.advertise", errors.get(0).path(), errors.toString());
        assertTrue(errors.get(0).message().contains("'port'"), errors.toString());
        assertEquals(10, errors.get(0).line(), errors.toString());
        assertEquals(7, errors.get(0).column(), errors.toString());
        assertEquals("bindings.kafka_proxy.options.advertise.ports", errors.get(1).path(), errors.toString());
        assertTrue(errors.get(1).message().contains("not allowed"), errors.toString());
        assertEquals(14, errors.get(1).line(), errors.toString());
        assertEquals(9, errors.get(1).column(), errors.toString());
    }

    @Test
    void shouldReportTheOnePortInPortModeAndAMissingBootstrapName()
    {
        final List<ConfigError> errors = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
                    port: 9094
            """));

        assertEquals(1, errors.size(), errors.toString());
        assertEquals("bindings.kafka_proxy.options.advertise.port", errors.get(0).path(), errors.toString());
        assertEquals(15, errors.get(0).line(), errors.toString());
        assertEquals(9, errors.get(0).column(), errors.toString());

        final List<ConfigError> missing = errors(proxy("""
                    sni:
                      broker: broker-{id}.kafka.example.com
                    port: 9093
            """));
        assertEquals(1, missing.size(), missing.toString());
        assertEquals("bindings.kafka_proxy.options.advertise.sni", missing.get(0).path(), missing.toString());
        assertTrue(missing.get(0).message().contains("bootstrap"), missing.toString());
        assertEquals(11, missing.get(0).line(), missing.toString());
        assertEquals(9, missing.get(0).column(), missing.toString());
    }

    @Test
    void shouldNameEveryNodeAndReadTheNamesBack()
    {
        final KafkaSniConfig sni = new KafkaSniConfig("bootstrap.kafka.test", "broker-{id}.kafka.test", 9093);

        assertEquals("broker-7.kafka.test", sni.brokerName(7));
        assertEquals(7, sni.nodeOf("broker-7.kafka.test"));
        assertEquals(7, sni.nodeOf("Broker-7.KAFKA.test"), "names ignore case, as DNS does");
        assertEquals(0, sni.nodeOf("broker-0.kafka.test"));
        assertEquals(Integer.MAX_VALUE, sni.nodeOf("broker-2147483647.kafka.test"));
        assertEquals(KafkaSniConfig.BOOTSTRAP, sni.nodeOf("bootstrap.kafka.test"));
        assertEquals(KafkaSniConfig.BOOTSTRAP, sni.nodeOf("BOOTSTRAP.kafka.test"));
        assertEquals(KafkaSniConfig.BOOTSTRAP, sni.nodeOf(null), "no server name: a bootstrap server");
        for (String name : List.of("broker-.kafka.test", "broker-07.kafka.test", "broker-2147483648.kafka.test",
            "broker-99999999999.kafka.test", "broker-1x.kafka.test", "broker--1.kafka.test", "broker-+1.kafka.test",
            "xbroker-1.kafka.test", "broker-1.kafka.test.evil", "broker-1.kafka.tes", "other.kafka.test"))
        {
            assertEquals(KafkaSniConfig.UNKNOWN, sni.nodeOf(name), name);
        }

        final KafkaSniConfig leading = new KafkaSniConfig("kafka.test", "{id}.brokers.kafka.test", 443);
        assertEquals("3.brokers.kafka.test", leading.brokerName(3));
        assertEquals(3, leading.nodeOf("3.brokers.kafka.test"));
        assertEquals(KafkaSniConfig.UNKNOWN, leading.nodeOf(".brokers.kafka.test"));

        assertThrows(IllegalArgumentException.class, () -> new KafkaSniConfig("b", "broker.kafka.test", 9093));
        assertThrows(IllegalArgumentException.class, () -> new KafkaSniConfig("b", "{id}-{id}.kafka.test", 9093));
    }

    @Test
    void shouldBindLimitsAndTheirDefaults()
    {
        final String portMode = """
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
            """;
        final KafkaOptionsConfig defaults = (KafkaOptionsConfig) reader.read("zilla.yaml", proxy(portMode), 1)
            .binding("kafka_proxy").options();
        final KafkaOptionsConfig limited = (KafkaOptionsConfig) reader.read("zilla.yaml", proxy(portMode + """
                  limits:
                    request-max-bytes: 1048576
                    request-timeout: 5000
                    partial-requests-max-bytes: 16777216
            """), 1).binding("kafka_proxy").options();

        assertEquals(new KafkaProxyLimits(104_857_600, 30_000L, 268_435_456L), defaults.limits());
        assertEquals(new KafkaProxyLimits(1_048_576, 5_000L, 16_777_216L), limited.limits());
    }

    @Test
    void shouldReportLimitsOutOfRangeWithLineColumnAndPath()
    {
        final List<ConfigError> errors = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
                  limits:
                    request-max-bytes: 4
                    request-timeout: 0
                    request-size: 1024
            """));

        assertEquals(List.of(
            "16:28 bindings.kafka_proxy.options.limits.request-max-bytes: must be at least 8",
            "17:26 bindings.kafka_proxy.options.limits.request-timeout: must be at least 1",
            "18:9 bindings.kafka_proxy.options.limits: unknown property 'request-size'"), describe(errors));

        // default partial-requests-max-bytes is 256 MiB: a larger request-max-bytes must raise it too
        final List<ConfigError> below = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
                  limits:
                    request-max-bytes: 536870912
            """));
        assertEquals(List.of("15:7 bindings.kafka_proxy.options.limits: partial-requests-max-bytes (the default, 268435456) "
            + "is below request-max-bytes (536870912): no request of the largest size could pass"), describe(below));
        // and the other way: the default request-max-bytes is 100 MiB
        final List<ConfigError> belowDefault = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
                  limits:
                    partial-requests-max-bytes: 1048576
            """));
        assertEquals(List.of("15:7 bindings.kafka_proxy.options.limits: partial-requests-max-bytes (1048576) is below "
            + "request-max-bytes (the default, 104857600): no request of the largest size could pass"), describe(belowDefault));
        // both written: both as written
        final List<ConfigError> both = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
                  limits:
                    request-max-bytes: 2097152
                    partial-requests-max-bytes: 1048576
            """));
        assertEquals(List.of("15:7 bindings.kafka_proxy.options.limits: partial-requests-max-bytes (1048576) is below "
            + "request-max-bytes (2097152): no request of the largest size could pass"), describe(both));
    }

    @Test
    void shouldReportLimitsTooLargeToTimeOrCount()
    {
        // partialStartedAt + request-timeout overflowed past 2^63 (a deadline in the past: the timeout at once), and
        // above 2^64 a value wrapped to a small one
        final String portMode = """
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
                  limits:
            """;
        final List<ConfigError> errors = errors(proxy(portMode + """
                    request-max-bytes: 2147483648
                    request-timeout: 9223372036854775807
                    partial-requests-max-bytes: 18446744073709551617
            """));
        assertEquals(List.of(
            "16:28 bindings.kafka_proxy.options.limits.request-max-bytes: must be at most 2147483647: a request's size is "
                + "a 32-bit signed integer",
            "17:26 bindings.kafka_proxy.options.limits.request-timeout: must be at most 2147483647 (milliseconds, about 24 "
                + "days)",
            "18:37 bindings.kafka_proxy.options.limits.partial-requests-max-bytes: must be at most 1099511627776 (1 TiB)"),
            describe(errors));
        final KafkaOptionsConfig largest = (KafkaOptionsConfig) reader.read("zilla.yaml", proxy(portMode + """
                    request-max-bytes: 2147483647
                    request-timeout: 2147483647
                    partial-requests-max-bytes: 1099511627776
            """), 1).binding("kafka_proxy").options();
        assertEquals(new KafkaProxyLimits(2_147_483_647, 2_147_483_647L, 1_099_511_627_776L), largest.limits());
    }

    @Test
    void shouldRefuseWhatAKafkaBindingDoesNotActOn()
    {
        final List<ConfigError> errors = errors("""
            ---
            name: test
            vaults:
              server:
                type: secrets
                options:
                  file: keys.p12
            bindings:
              kafka_proxy:
                type: kafka
                kind: proxy
                vault: server
                options:
                  bootstrap:
                    - broker1.internal:99999
                  advertise:
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
                routes:
                  - exit: tcp_client
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """);

        assertEquals(List.of(
            "12:12 bindings.kafka_proxy.vault: a kafka binding uses no vault: TLS to the brokers, or from the clients, is a "
                + "tls binding beside it",
            "15:11 bindings.kafka_proxy.options.bootstrap[0]: must be host:port, with a port from 1 to 65535",
            "21:5 bindings.kafka_proxy.routes: a kafka binding of kind proxy or client has no routes: every stream goes to"
                + " its exit (routes by topic are for kinds cache_client and cache_server)"),
            describe(errors));
    }

    @Test
    void shouldRefusePortsThatCannotTellTheirBroker()
    {
        final List<ConfigError> shared = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9093
                      "2": 9093
            """));
        final List<ConfigError> bootstrap = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "1": 9092
            """));
        final List<ConfigError> overflow = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "2147483648": 9093
                      "01": 9094
            """));

        assertEquals(List.of("15:16 bindings.kafka_proxy.options.advertise.ports.2: port 9093 is node 1's too: a connection "
            + "there could not tell which broker it is for"), describe(shared));
        assertEquals(List.of("14:16 bindings.kafka_proxy.options.advertise.ports.1: port 9092 is the bootstrap_port: a "
            + "connection there could not tell the bootstrap servers from node 1"), describe(bootstrap));
        assertEquals(List.of(
            "15:11 bindings.kafka_proxy.options.advertise.ports: invalid name '01': must be a broker node id: 0 to 2147483647, "
                + "in decimal"), describe(overflow));
        final List<ConfigError> large = errors(proxy("""
                    host: kafka.example.com
                    bootstrap_port: 9092
                    ports:
                      "2147483648": 9093
            """));
        assertEquals(List.of("14:25 bindings.kafka_proxy.options.advertise.ports.2147483648: node id 2147483648 is over "
            + "2147483647"), describe(large));
    }

    // advertise is on line 10 (column 7), its properties from line 11 at column 9
    private static String proxy(String advertise)
    {
        return """
            ---
            name: test
            bindings:
              kafka_proxy:
                type: kafka
                kind: proxy
                options:
                  bootstrap:
                    - broker1.internal:9092
                  advertise:
            """ + advertise + """
                exit: tcp_client
              tcp_client:
                type: tcp
                kind: client
            """;
    }

    private static List<String> describe(List<ConfigError> errors)
    {
        return errors.stream().map(error -> error.line() + ":" + error.column() + " " + error.path() + ": " + error.message())
            .toList();
    }

    private List<ConfigError> errors(String yaml)
    {
        return assertThrows(ConfigException.class, () -> reader.read("zilla.yaml", yaml, 1)).errors();
    }
}
