/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.Locale;
import javax.security.sasl.SaslException;

import io.zilla.bindings.kafka.config.KafkaSaslConfig;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The client side of PLAIN and SCRAM against a server written here with kafka-clients' ScramFormatter, as the
 * broker's ScramSaslServer computes it: the proof it checks, and the server signatures the client must refuse.
 */
class KafkaClientSaslMechanismTest
{
    private static final byte[] SALT = "a-salt-of-some-bytes".getBytes(UTF_8);
    private static final int ITERATIONS = 4096;

    @Test
    void shouldWritePlainWithAnEmptyAuthorizationId() throws Exception
    {
        final KafkaClientSaslMechanism plain = KafkaClientSaslMechanism.of(new KafkaSaslConfig("plain", "alice", "secret"));

        assertEquals("PLAIN", plain.name());
        assertArrayEquals("\0alice\0secret".getBytes(UTF_8), plain.start());
        assertNull(plain.evaluate(new byte[0]), "one message");
    }

    @ParameterizedTest
    @ValueSource(strings = {"scram-sha-256", "scram-sha-512"})
    void shouldProveThePasswordAndCheckTheServerSignature(String name) throws Exception
    {
        final KafkaClientSaslMechanism client = KafkaClientSaslMechanism.of(new KafkaSaslConfig(name, "bob,=x", "secret"));
        final Server server = new Server(ScramMechanism.forMechanismName(name.toUpperCase(Locale.ROOT)), "secret");

        assertEquals(name.toUpperCase(Locale.ROOT), client.name());
        final byte[] serverFirst = server.first(client.start());
        assertEquals("bob=2C=3Dx", server.clientFirst.saslName(), "',' and '=' escaped");
        final byte[] serverFinal = server.last(client.evaluate(serverFirst));

        assertTrue(server.proven, "the server checked the client's proof");
        assertNull(client.evaluate(serverFinal), "the exchange is done");
    }

    @Test
    void shouldRefuseAServerThatDoesNotKnowThePassword() throws Exception
    {
        final KafkaClientSaslMechanism client =
            KafkaClientSaslMechanism.of(new KafkaSaslConfig("scram-sha-256", "bob", "secret"));
        final Server impostor = new Server(ScramMechanism.SCRAM_SHA_256, "another");

        final byte[] forged = impostor.last(client.evaluate(impostor.first(client.start())));
        assertFalse(impostor.proven, "the impostor cannot check the proof either");

        final SaslException refused = assertThrows(SaslException.class, () -> client.evaluate(forged));
        assertTrue(refused.getMessage().contains("signature"), refused::getMessage);
    }

    @Test
    void shouldRefuseANonceThatDoesNotExtendTheClients() throws Exception
    {
        final KafkaClientSaslMechanism client =
            KafkaClientSaslMechanism.of(new KafkaSaslConfig("scram-sha-512", "bob", "secret"));
        client.start();
        final byte[] serverFirst = new ScramMessages.ServerFirstMessage("not-ours", "server", SALT, ITERATIONS).toBytes();

        assertThrows(SaslException.class, () -> client.evaluate(serverFirst));
    }

    @Test
    void shouldRefuseTooFewIterationsAndAServerError() throws Exception
    {
        final KafkaClientSaslMechanism few = KafkaClientSaslMechanism.of(new KafkaSaslConfig("scram-sha-256", "bob", "s"));
        final ScramMessages.ClientFirstMessage first = new ScramMessages.ClientFirstMessage(few.start());
        final byte[] weak = new ScramMessages.ServerFirstMessage(first.nonce(), "server", SALT, 1).toBytes();
        assertThrows(SaslException.class, () -> few.evaluate(weak));

        final KafkaClientSaslMechanism client =
            KafkaClientSaslMechanism.of(new KafkaSaslConfig("scram-sha-256", "bob", "secret"));
        final Server server = new Server(ScramMechanism.SCRAM_SHA_256, "secret");
        client.evaluate(server.first(client.start()));
        final byte[] error = new ScramMessages.ServerFinalMessage("invalid-proof", null).toBytes();
        final SaslException refused = assertThrows(SaslException.class, () -> client.evaluate(error));
        assertTrue(refused.getMessage().contains("invalid-proof"), refused::getMessage);
    }

    /** The broker's side, with the credential it would derive from {@code password}. */
    private static final class Server
    {
        private final ScramFormatter formatter;
        private final byte[] saltedPassword;

        private ScramMessages.ClientFirstMessage clientFirst;
        private ScramMessages.ServerFirstMessage serverFirst;
        private boolean proven;

        Server(ScramMechanism mechanism, String password) throws Exception
        {
            this.formatter = new ScramFormatter(mechanism);
            this.saltedPassword = formatter.saltedPassword(password, SALT, ITERATIONS);
        }

        byte[] first(byte[] message) throws Exception
        {
            clientFirst = new ScramMessages.ClientFirstMessage(message);
            serverFirst = new ScramMessages.ServerFirstMessage(clientFirst.nonce(), "server-nonce", SALT, ITERATIONS);
            return serverFirst.toBytes();
        }

        byte[] last(byte[] message) throws Exception
        {
            final ScramMessages.ClientFinalMessage clientFinal = new ScramMessages.ClientFinalMessage(message);
            final byte[] storedKey = formatter.storedKey(formatter.clientKey(saltedPassword));
            final byte[] expectedSignature = formatter.clientSignature(storedKey, clientFirst, serverFirst, clientFinal);
            final byte[] clientKey = ScramFormatter.xor(clientFinal.proof(), expectedSignature);
            proven = Arrays.equals(formatter.hash(clientKey), storedKey);
            final byte[] signature =
                formatter.serverSignature(formatter.serverKey(saltedPassword), clientFirst, serverFirst, clientFinal);
            return new ScramMessages.ServerFinalMessage(null, signature).toBytes();
        }
    }
}
