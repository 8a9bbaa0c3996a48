/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import static io.zilla.kafka.embedded.EmbeddedKafkaSslTest.causes;
import static io.zilla.kafka.embedded.EmbeddedKafkaSslTest.consume;
import static io.zilla.kafka.embedded.EmbeddedKafkaSslTest.produce;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLException;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A broker of its own with {@code ssl.client.auth=required}: the client's certificate, and SSL across a restart. */
class EmbeddedKafkaMutualTlsTest
{
    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start()
    {
        kafka = new EmbeddedKafka().withMutualTls().start();
    }

    @AfterAll
    static void stop()
    {
        kafka.close();
    }

    @Test
    void shouldRefuseAClientWithoutACertificate()
    {
        final Map<String, Object> config = new HashMap<>(kafka.sslClientConfig());
        config.remove(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG);
        config.remove(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG);
        config.remove(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG);
        config.remove(SslConfigs.SSL_KEY_PASSWORD_CONFIG);
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        try (Admin admin = Admin.create(config))
        {
            final ExecutionException failure = assertThrows(ExecutionException.class,
                () -> admin.describeCluster().nodes().get(60, TimeUnit.SECONDS));
            assertInstanceOf(SslAuthenticationException.class, failure.getCause(), failure::toString);
            assertTrue(causes(failure, SSLException.class), failure::toString);
        }
    }

    @Test
    void shouldKeepTheSslListenerAndItsKeysAcrossARestart() throws Exception
    {
        final String topic = "mutual-tls-restart";
        kafka.createTopic(topic, 1);
        final String before = kafka.sslBootstrapServers();
        final byte[] ca = Files.readAllBytes(kafka.caCertificate());
        produce(kafka.sslClientConfig(), topic, "a", "before the restart");

        kafka.restart();

        assertEquals(before, kafka.sslBootstrapServers());
        assertArrayEquals(ca, Files.readAllBytes(kafka.caCertificate()), "the same CA after the restart");
        produce(kafka.sslClientConfig(), topic, "b", "after the restart");
        final List<ConsumerRecord<String, String>> records = consume(kafka.sslClientConfig(), topic, 2);
        assertEquals(List.of("before the restart", "after the restart"), records.stream().map(ConsumerRecord::value).toList());
    }
}
