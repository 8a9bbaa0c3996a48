/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.kafka.embedded;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.file.Files;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.TrustManagerFactory;

import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The SSL listener of the extension's SSL broker: kafka-clients with host name verification on, the certificate as a
 * JDK client sees it, and a client that does not trust the broker's CA.
 */
class EmbeddedKafkaSslTest
{
    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.withSsl();

    @Test
    void shouldProduceAndConsumeOverSslWithHostNameVerification(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create();
        final Map<String, Object> ssl = kafka.sslClientConfig();
        assertEquals("SSL", ssl.get(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG));
        assertTrue(!ssl.containsKey(SslConfigs.SSL_ENDPOINT_IDENTIFICATION_ALGORITHM_CONFIG)
            && "https".equals(SslConfigs.DEFAULT_SSL_ENDPOINT_IDENTIFICATION_ALGORITHM), "kafka-clients verifies host names");

        final RecordMetadata sent = produce(ssl, topic, "key", "over ssl");
        final List<ConsumerRecord<String, String>> records = consume(ssl, topic, 1);

        assertEquals(1, records.size());
        assertEquals("over ssl", records.get(0).value());
        assertEquals(sent.offset(), records.get(0).offset());
        try (Admin admin = Admin.create(ssl))
        {
            final List<Node> nodes = new ArrayList<>(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS));
            assertEquals(1, nodes.size());
            assertEquals(kafka.sslPort(), nodes.get(0).port(), "the SSL listener advertises itself");
        }
    }

    @Test
    void shouldShareOneSslBrokerBesideThePlainOne(EmbeddedKafka kafka, EmbeddedKafka again)
    {
        assertSame(kafka, again);
        assertSame(kafka, KAFKA.kafka());
        assertNotEquals(kafka.bootstrapServers(), kafka.sslBootstrapServers());
        assertTrue(Files.exists(kafka.caCertificate()));
        assertThrows(IllegalStateException.class, kafka::clientKeystore, "no client certificate without mutual TLS");
        assertThrows(IllegalStateException.class, () -> new EmbeddedKafka().sslBootstrapServers());
    }

    @Test
    void shouldPresentACertificateForLocalhostSignedByTheCa(EmbeddedKafka kafka) throws Exception
    {
        final X509Certificate ca;
        try (InputStream in = Files.newInputStream(kafka.caCertificate()))
        {
            ca = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(in);
        }
        final KeyStore truststore = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(kafka.truststore()))
        {
            truststore.load(in, kafka.sslPassword().toCharArray());
        }
        assertEquals(ca, truststore.getCertificate("ca"));

        final TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(truststore);
        final SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, trust.getTrustManagers(), null);
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket("127.0.0.1", kafka.sslPort()))
        {
            final SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            socket.setSoTimeout(30_000);
            socket.startHandshake();

            final X509Certificate broker = (X509Certificate) socket.getSession().getPeerCertificates()[0];
            assertEquals(ca.getSubjectX500Principal(), broker.getIssuerX500Principal());
            broker.verify(ca.getPublicKey());
            final List<String> names = new ArrayList<>();
            broker.getSubjectAlternativeNames().forEach(name -> names.add(String.valueOf(name.get(1))));
            assertEquals(List.of("localhost", "127.0.0.1"), names);
        }
    }

    @Test
    void shouldFailTheHandshakeOfAClientThatDoesNotTrustTheCa(EmbeddedKafka kafka)
    {
        // the JDK's default trust (cacerts) does not hold the broker's own CA
        final Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.sslBootstrapServers());
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 30_000);
        try (Admin admin = Admin.create(config))
        {
            final ExecutionException failure = assertThrows(ExecutionException.class,
                () -> admin.describeCluster().nodes().get(60, TimeUnit.SECONDS));
            assertInstanceOf(SslAuthenticationException.class, failure.getCause(), failure::toString);
            assertTrue(causes(failure, SSLHandshakeException.class), failure::toString);
        }
    }

    static boolean causes(Throwable failure, Class<? extends Throwable> type)
    {
        Throwable cause = failure;
        while (cause != null && !type.isInstance(cause))
        {
            cause = cause.getCause();
        }
        return cause != null;
    }

    static RecordMetadata produce(Map<String, Object> ssl, String topic, String key, String value) throws Exception
    {
        final Map<String, Object> config = new HashMap<>(ssl);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config))
        {
            return producer.send(new ProducerRecord<>(topic, key, value)).get(30, TimeUnit.SECONDS);
        }
    }

    static List<ConsumerRecord<String, String>> consume(Map<String, Object> ssl, String topic, int count)
    {
        final Map<String, Object> config = new HashMap<>(ssl);
        config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
        final List<ConsumerRecord<String, String>> records = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(config))
        {
            final TopicPartition assigned = new TopicPartition(topic, 0);
            consumer.assign(List.of(assigned));
            consumer.seekToBeginning(List.of(assigned));
            final long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (records.size() < count && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        return records;
    }
}
