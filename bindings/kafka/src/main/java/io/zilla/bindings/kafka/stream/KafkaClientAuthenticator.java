/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import javax.security.sasl.SaslException;

import io.zilla.bindings.kafka.config.KafkaSaslConfig;
import io.zilla.specs.kafka.codec.KafkaApis;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslAuthenticateResponseData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.message.SaslHandshakeResponseData;

/**
 * SASL on one broker connection, after ApiVersions and before any other request (and again to re-authenticate,
 * KIP-368): SaslHandshake with the mechanism, then SaslAuthenticate as many times as the mechanism has messages
 * (PLAIN one, SCRAM two). The connection writes the requests it is given ({@link Listener#sendSasl}) ahead of its
 * queue and hears the outcome. No stream's request goes out in between: Kafka reads nothing else on a connection
 * between the handshake and the end of the exchange.
 */
final class KafkaClientAuthenticator
{
    /** Kafka's error code SASL_AUTHENTICATION_FAILED: bad credentials, or a mechanism the broker does not enable. */
    static final short SASL_AUTHENTICATION_FAILED = 58;

    private static final short UNSUPPORTED_SASL_MECHANISM = 33;

    interface Listener
    {
        /** Writes a SASL request now, ahead of the connection's queued requests. */
        void sendSasl(KafkaClientRequest request, long traceId);

        /** Authenticated; the session expires after {@code sessionLifetimeMs} (0: never, the broker has no limit). */
        void onAuthenticated(long sessionLifetimeMs, long traceId);

        void onAuthenticationFailed(String reason, long traceId);
    }

    private final KafkaSaslConfig config;
    private final Listener listener;
    private final Handshake handshake = new Handshake();
    private final Authenticate authenticate = new Authenticate();

    private KafkaClientSaslMechanism mechanism;
    private byte[] message;

    KafkaClientAuthenticator(KafkaSaslConfig config, Listener listener)
    {
        this.config = config;
        this.listener = listener;
    }

    String mechanism()
    {
        return config.kafkaMechanism();
    }

    String username()
    {
        return config.username();
    }

    /** Starts a new exchange, for the first authentication or a re-authentication. */
    void start(long traceId)
    {
        mechanism = KafkaClientSaslMechanism.of(config);
        message = null;
        listener.sendSasl(handshake, traceId);
    }

    private final class Handshake implements KafkaClientRequest
    {
        @Override
        public short apiKey()
        {
            return KafkaApis.SASL_HANDSHAKE;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            final SaslHandshakeRequestData request = new SaslHandshakeRequestData().setMechanism(mechanism.name());
            return KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            SaslHandshakeResponseData response;
            try
            {
                response = new SaslHandshakeResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            }
            catch (RuntimeException ex)
            {
                // kafka-clients reports a truncated or malformed body with a RuntimeException of its own
                response = null;
            }
            // an unreadable response: the connection reports it as malformed and closes
            if (response != null)
            {
                onAnswer(response, traceId);
            }
            return response != null;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            // the connection fails and reports itself
        }

        private void onAnswer(SaslHandshakeResponseData response, long traceId)
        {
            if (response.errorCode() == UNSUPPORTED_SASL_MECHANISM)
            {
                listener.onAuthenticationFailed("the broker does not enable " + mechanism.name() + ", only "
                    + response.mechanisms(), traceId);
            }
            else if (response.errorCode() != KafkaClientTopic.NONE)
            {
                listener.onAuthenticationFailed("SaslHandshake error " + response.errorCode(), traceId);
            }
            else
            {
                try
                {
                    message = mechanism.start();
                    listener.sendSasl(authenticate, traceId);
                }
                catch (SaslException ex)
                {
                    listener.onAuthenticationFailed(ex.getMessage(), traceId);
                }
            }
        }
    }

    private final class Authenticate implements KafkaClientRequest
    {
        @Override
        public short apiKey()
        {
            return KafkaApis.SASL_AUTHENTICATE;
        }

        @Override
        public int encode(short version, MutableDirectBuffer buffer, int offset, int maxLimit)
        {
            final SaslAuthenticateRequestData request = new SaslAuthenticateRequestData().setAuthBytes(message);
            return KafkaControlMessages.write(request, version, buffer, offset, maxLimit);
        }

        @Override
        public boolean onResponse(short version, DirectBuffer buffer, int offset, int limit, long traceId)
        {
            SaslAuthenticateResponseData response;
            try
            {
                response = new SaslAuthenticateResponseData(KafkaControlMessages.readable(buffer, offset, limit), version);
            }
            catch (RuntimeException ex)
            {
                response = null;
            }
            if (response != null && response.errorCode() != KafkaClientTopic.NONE)
            {
                final String reason = response.errorMessage() != null ? response.errorMessage()
                    : "SaslAuthenticate error " + response.errorCode();
                listener.onAuthenticationFailed(reason, traceId);
            }
            else if (response != null)
            {
                onAnswer(response, traceId);
            }
            // an unreadable response: the connection reports it as malformed and closes
            return response != null;
        }

        @Override
        public void onFailed(short error, long traceId)
        {
            // the connection fails and reports itself
        }

        private void onAnswer(SaslAuthenticateResponseData response, long traceId)
        {
            try
            {
                message = mechanism.evaluate(response.authBytes());
                if (message != null)
                {
                    listener.sendSasl(this, traceId);
                }
                else
                {
                    listener.onAuthenticated(response.sessionLifetimeMs(), traceId);
                }
            }
            catch (SaslException ex)
            {
                listener.onAuthenticationFailed(ex.getMessage(), traceId);
            }
        }
    }
}
