/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Map;
import javax.security.sasl.SaslException;

import io.zilla.bindings.kafka.config.KafkaSaslConfig;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.security.scram.internals.ScramMechanism;
import org.apache.kafka.common.security.scram.internals.ScramMessages;

/**
 * The client side of one SASL exchange, as SaslAuthenticate carries it: the first bytes to send, then, for each answer
 * of the broker, the next bytes or none when the exchange is done. A new one per (re-)authentication: SCRAM keeps the
 * nonce and the salted password of its exchange. Control plane only, so the allocation here is acceptable.
 */
abstract class KafkaClientSaslMechanism
{
    /** The mechanism as SaslHandshake names it: {@code PLAIN}, {@code SCRAM-SHA-256}, {@code SCRAM-SHA-512}. */
    abstract String name();

    /** The client's first message. */
    abstract byte[] start() throws SaslException;

    /**
     * The broker's answer to the last message.
     *
     * @return the next message, or null when the exchange is done and the broker proved itself where it must
     * @throws SaslException when the answer is not what the mechanism allows (a bad nonce, a wrong server signature)
     */
    abstract byte[] evaluate(byte[] answer) throws SaslException;

    /** A new exchange for the binding's credentials; the schema allows only the mechanisms here. */
    static KafkaClientSaslMechanism of(KafkaSaslConfig config)
    {
        final String name = config.kafkaMechanism();
        return switch (name)
        {
            case "PLAIN" -> new Plain(config.username(), config.password());
            case "SCRAM-SHA-256", "SCRAM-SHA-512" ->
                new Scram(ScramMechanism.forMechanismName(name), config.username(), config.password());
            default -> throw new IllegalArgumentException("SASL mechanism " + config.mechanism() + " is not supported");
        };
    }

    /** RFC 4616: one message, {@code authzid NUL authcid NUL password} with an empty authzid; the broker says nothing back. */
    private static final class Plain extends KafkaClientSaslMechanism
    {
        private final String username;
        private final String password;

        Plain(String username, String password)
        {
            this.username = username;
            this.password = password;
        }

        @Override
        String name()
        {
            return "PLAIN";
        }

        @Override
        byte[] start()
        {
            return ("\0" + username + "\0" + password).getBytes(UTF_8);
        }

        @Override
        byte[] evaluate(byte[] answer)
        {
            return null;
        }
    }

    /**
     * RFC 5802 / RFC 7677 without channel binding: client-first (user, random nonce), server-first (nonce, salt,
     * iterations), client-final (proof from the PBKDF2-HMAC salted password), server-final (the server's signature,
     * checked here so that a broker that does not know the password cannot pass for one that does).
     */
    private static final class Scram extends KafkaClientSaslMechanism
    {
        private static final byte[] NO_CHANNEL_BINDING = "n,,".getBytes(UTF_8);

        private final ScramMechanism mechanism;
        private final String username;
        private final String password;

        private ScramFormatter formatter;
        private ScramMessages.ClientFirstMessage clientFirst;
        private ScramMessages.ServerFirstMessage serverFirst;
        private ScramMessages.ClientFinalMessage clientFinal;
        private byte[] saltedPassword;

        Scram(ScramMechanism mechanism, String username, String password)
        {
            this.mechanism = mechanism;
            this.username = username;
            this.password = password;
        }

        @Override
        String name()
        {
            return mechanism.mechanismName();
        }

        @Override
        byte[] start() throws SaslException
        {
            try
            {
                formatter = new ScramFormatter(mechanism);
            }
            catch (GeneralSecurityException ex)
            {
                throw new SaslException(mechanism.hashAlgorithm() + " is not available in this JVM", ex);
            }
            clientFirst = new ScramMessages.ClientFirstMessage(ScramFormatter.saslName(username),
                formatter.secureRandomString(), Map.of());
            return clientFirst.toBytes();
        }

        @Override
        byte[] evaluate(byte[] answer) throws SaslException
        {
            return serverFirst == null ? clientFinal(answer) : serverFinal(answer);
        }

        private byte[] clientFinal(byte[] answer) throws SaslException
        {
            serverFirst = new ScramMessages.ServerFirstMessage(answer);
            if (!serverFirst.nonce().startsWith(clientFirst.nonce()))
            {
                throw new SaslException("the server's nonce does not extend the client's");
            }
            if (serverFirst.iterations() < mechanism.minIterations())
            {
                throw new SaslException("the server asks for " + serverFirst.iterations() + " iterations, fewer than "
                    + mechanism.minIterations());
            }
            clientFinal = new ScramMessages.ClientFinalMessage(NO_CHANNEL_BINDING, serverFirst.nonce());
            try
            {
                saltedPassword = formatter.saltedPassword(password, serverFirst.salt(), serverFirst.iterations());
                clientFinal.proof(formatter.clientProof(saltedPassword, clientFirst, serverFirst, clientFinal));
            }
            catch (GeneralSecurityException ex)
            {
                throw new SaslException("the client proof cannot be computed", ex);
            }
            return clientFinal.toBytes();
        }

        private byte[] serverFinal(byte[] answer) throws SaslException
        {
            final ScramMessages.ServerFinalMessage serverFinal = new ScramMessages.ServerFinalMessage(answer);
            if (serverFinal.error() != null)
            {
                throw new SaslException("the server refused: " + serverFinal.error());
            }
            final byte[] expected;
            try
            {
                expected = formatter.serverSignature(formatter.serverKey(saltedPassword), clientFirst, serverFirst,
                    clientFinal);
            }
            catch (GeneralSecurityException ex)
            {
                throw new SaslException("the server signature cannot be computed", ex);
            }
            if (!MessageDigest.isEqual(expected, serverFinal.serverSignature()))
            {
                throw new SaslException("the server's signature is wrong: it does not know the password");
            }
            return null;
        }
    }
}
