/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The SASL_PLAINTEXT listener: PLAIN users from the JAAS line, SCRAM credentials from the formatted metadata log. */
class EmbeddedKafkaSaslTest
{
    private static final String PLAIN = "org.apache.kafka.common.security.plain.PlainLoginModule";
    private static final String SCRAM = "org.apache.kafka.common.security.scram.ScramLoginModule";

    private static EmbeddedKafka kafka;

    @BeforeAll
    static void start()
    {
        kafka = new EmbeddedKafka()
            .plainUser("alice", "alice-secret")
            .scramCredential("SCRAM-SHA-256", "bob", "bob-secret")
            .scramCredential("SCRAM-SHA-512", "carol", "carol-secret")
            .start();
    }

    @AfterAll
    static void stop()
    {
        kafka.close();
    }

    @Test
    void shouldAuthenticateEachMechanismOnTheSaslListener() throws Exception
    {
        assertNotEquals(kafka.bootstrapServers(), kafka.saslBootstrapServers());
        assertEquals(1, clusterSize(sasl("PLAIN", PLAIN, "alice", "alice-secret")));
        assertEquals(1, clusterSize(sasl("SCRAM-SHA-256", SCRAM, "bob", "bob-secret")));
        assertEquals(1, clusterSize(sasl("SCRAM-SHA-512", SCRAM, "carol", "carol-secret")));
    }

    @Test
    void shouldRefuseWrongPasswordAndWrongMechanism()
    {
        assertRefused(sasl("PLAIN", PLAIN, "alice", "wrong"));
        assertRefused(sasl("SCRAM-SHA-256", SCRAM, "bob", "wrong"));
        // bob's credential is for SHA-256 only
        assertRefused(sasl("SCRAM-SHA-512", SCRAM, "bob", "bob-secret"));
    }

    @Test
    void shouldRejectCredentialsThatCannotBeWritten()
    {
        final EmbeddedKafka unstarted = new EmbeddedKafka();
        assertThrows(IllegalArgumentException.class, () -> unstarted.scramCredential("SCRAM-SHA-1", "x", "y"));
        assertThrows(IllegalArgumentException.class, () -> unstarted.scramCredential("SCRAM-SHA-256", "x,y", "z"));
        assertThrows(IllegalArgumentException.class, () -> unstarted.plainUser("x", "a \"quoted\" secret"));
        assertThrows(IllegalStateException.class, unstarted::saslBootstrapServers);
    }

    private static int clusterSize(Map<String, Object> config) throws Exception
    {
        try (Admin admin = Admin.create(config))
        {
            return admin.describeCluster().nodes().get(30, TimeUnit.SECONDS).size();
        }
    }

    private static void assertRefused(Map<String, Object> config)
    {
        try (Admin admin = Admin.create(config))
        {
            final ExecutionException failure = assertThrows(ExecutionException.class,
                () -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS));
            assertInstanceOf(SaslAuthenticationException.class, failure.getCause(), failure::toString);
        }
    }

    private static Map<String, Object> sasl(String mechanism, String module, String username, String password)
    {
        return Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.saslBootstrapServers(),
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) Duration.ofSeconds(30).toMillis(),
            CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT",
            SaslConfigs.SASL_MECHANISM, mechanism,
            SaslConfigs.SASL_JAAS_CONFIG, module + " required username=\"" + username + "\" password=\"" + password + "\";");
    }
}
