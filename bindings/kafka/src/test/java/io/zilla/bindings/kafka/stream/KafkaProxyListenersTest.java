/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A broker with more listeners than the shared one. SASL_PLAINTEXT (PLAIN): SaslHandshake and SaslAuthenticate pass
 * through the proxy untouched, and so does the re-authentication (KIP-368) the broker asks for every two seconds.
 * ELSEWHERE advertises a port where the test listens instead of the broker, which shows where the proxy sends a
 * client that connects to a node's port before the proxy has seen that node.
 */
class KafkaProxyListenersTest
{
    private static final String ALICE_JAAS =
        "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"alice\" password=\"%s\";";
    private static final long REAUTH_MS = 2_000;

    private static EmbeddedKafka kafka;
    private static int saslPort;
    private static int elsewherePort;
    private static ServerSocket elsewhere;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    @BeforeAll
    static void startBroker() throws IOException
    {
        final int port = KafkaProxyFixture.freePort();
        final int controllerPort = KafkaProxyFixture.freePort();
        saslPort = KafkaProxyFixture.freePort();
        elsewherePort = KafkaProxyFixture.freePort();
        elsewhere = new ServerSocket(0, 50, InetAddress.getByName(KafkaProxyFixture.LOOPBACK));
        kafka = new EmbeddedKafka()
            .port(port)
            .controllerPort(controllerPort)
            .property("listeners", "PLAINTEXT://127.0.0.1:" + port + ",SASL_PLAINTEXT://127.0.0.1:" + saslPort
                + ",ELSEWHERE://127.0.0.1:" + elsewherePort + ",CONTROLLER://127.0.0.1:" + controllerPort)
            .property("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port + ",SASL_PLAINTEXT://127.0.0.1:" + saslPort
                + ",ELSEWHERE://127.0.0.1:" + elsewhere.getLocalPort())
            .property("listener.security.protocol.map",
                "CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,ELSEWHERE:PLAINTEXT")
            .property("sasl.enabled.mechanisms", "PLAIN")
            .property("listener.name.sasl_plaintext.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required user_alice=\"alice-secret\";")
            .property("connections.max.reauth.ms", REAUTH_MS)
            .start();
    }

    @AfterAll
    static void stopBroker() throws IOException
    {
        kafka.close();
        elsewhere.close();
    }

    @Test
    void shouldLookUpNodeNotSeenYetBeforeConnecting() throws Exception
    {
        // the proxy has seen no Metadata yet when a client, holding metadata from before, goes to node 1's port
        proxy.start("127.0.0.1:" + elsewherePort);
        elsewhere.setSoTimeout(20_000);
        try (Socket client = new Socket(KafkaProxyFixture.LOOPBACK, proxy.nodePort());
            Socket upstream = elsewhere.accept())
        {
            final DataOutputStream out = new DataOutputStream(client.getOutputStream());
            // ApiVersions v0: header v1 with a null client id, no body
            out.writeInt(10);
            out.writeShort(18);
            out.writeShort(0);
            out.writeInt(7);
            out.writeShort(-1);
            out.flush();
            // node 1 as the broker advertises it on this listener: the test's socket, not the bootstrap server
            final DataInputStream in = new DataInputStream(upstream.getInputStream());
            upstream.setSoTimeout(20_000);
            assertEquals(10, in.readInt());
            assertEquals(18, in.readShort());
        }
    }

    @Test
    void shouldProduceAndConsumeAcrossReauthentications() throws Exception
    {
        proxy.start("127.0.0.1:" + saslPort);
        final String topic = "sasl-reauth";
        try (Admin admin = Admin.create(sasl("alice-secret")))
        {
            admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get(30, TimeUnit.SECONDS);
        }

        final Map<String, Object> producerConfig = sasl("alice-secret");
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        final int count = 60;
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig))
        {
            // three re-authentication periods with a record every 100 ms
            final List<Future<?>> sends = new ArrayList<>();
            for (int i = 0; i < count; i++)
            {
                sends.add(producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i)));
                Thread.sleep(3 * REAUTH_MS / count);
            }
            for (Future<?> send : sends)
            {
                send.get(30, TimeUnit.SECONDS);
            }
            assertTrue(metric(producer.metrics(), "successful-reauthentication-total") >= 1.0,
                "the producer re-authenticated through the proxy");
        }

        final Map<String, Object> consumerConfig = sasl("alice-secret");
        consumerConfig.put(ConsumerConfig.GROUP_ID_CONFIG, "sasl-group");
        consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        final Map<String, String> received = new HashMap<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig))
        {
            consumer.subscribe(List.of(topic));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (received.size() < count && System.nanoTime() < deadline)
            {
                for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200)))
                {
                    received.put(record.key(), record.value());
                }
            }
        }
        assertEquals(count, received.size());
        for (int i = 0; i < count; i++)
        {
            assertEquals("value-" + i, received.get("key-" + i));
        }
    }

    @Test
    void shouldPassOnAuthenticationFailure() throws Exception
    {
        proxy.start("127.0.0.1:" + saslPort);
        try (Admin admin = Admin.create(sasl("wrong-secret")))
        {
            final ExecutionException failure = assertThrows(ExecutionException.class,
                () -> admin.describeCluster().nodes().get(30, TimeUnit.SECONDS));
            assertInstanceOf(SaslAuthenticationException.class, failure.getCause());
        }
    }

    private Map<String, Object> sasl(String password)
    {
        final Map<String, Object> config = new HashMap<>(proxy.adminConfig());
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SASL_PLAINTEXT");
        config.put(SaslConfigs.SASL_MECHANISM, "PLAIN");
        config.put(SaslConfigs.SASL_JAAS_CONFIG, String.format(ALICE_JAAS, password));
        return config;
    }

    private static double metric(Map<MetricName, ? extends Metric> metrics, String name)
    {
        double total = 0.0;
        for (Map.Entry<MetricName, ? extends Metric> entry : metrics.entrySet())
        {
            if (entry.getKey().name().equals(name) && entry.getValue().metricValue() instanceof Double value)
            {
                total += value;
            }
        }
        return total;
    }
}
