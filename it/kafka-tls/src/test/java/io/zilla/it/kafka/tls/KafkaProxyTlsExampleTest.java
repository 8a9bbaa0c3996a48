/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.it.kafka.tls;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * examples/kafka.proxy.tls as shipped: its keystore.sh makes the key in a temporary copy of the example, and its
 * zilla.yaml runs there (on a free port instead of 9093) in front of the shared broker, for kafka-clients and kcat
 * over SSL that trust the example's certificate (tls/kafka.crt) and know the names from this module's hosts file.
 */
class KafkaProxyTlsExampleTest
{
    // tests run in the module directory
    private static final Path EXAMPLE = Path.of("..", "..", "examples", "kafka.proxy.tls");
    private static final String PASSWORD = "example-test";
    private static final Duration WAIT = Duration.ofSeconds(60);

    @RegisterExtension
    static final EmbeddedKafkaExtension KAFKA = EmbeddedKafkaExtension.withSsl();

    @TempDir
    Path directory;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @Test
    void shouldProxyKafkaOverTlsAsTheExampleSays(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final Path certificate = makeKeys();
        final int port = KafkaProxyOverTlsTest.freePort();
        final String yaml = Files.readString(EXAMPLE.resolve("zilla.yaml")).replace("port: 9093", "port: " + port);
        assertEquals(2, yaml.split("port: " + port, -1).length - 1, yaml);
        engine.env("KEYSTORE_PASSWORD", PASSWORD).env("KAFKA_BOOTSTRAP_SERVER", kafka.bootstrapServers())
            .startText(directory.resolve("zilla.yaml").toString(), yaml);

        final String topic = topics.create(1);
        final Map<String, Object> config = new HashMap<>();
        config.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "bootstrap.kafka.localhost:" + port);
        config.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        config.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
        config.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, certificate.toString());

        final Map<String, Object> producerConfig = new HashMap<>(config);
        producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
        producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerConfig, new StringSerializer(),
            new StringSerializer()))
        {
            producer.send(new ProducerRecord<>(topic, 0, "key1", "hello")).get();
        }

        // kcat as the README shows it (with the example's names in its own /etc/hosts)
        final Kcat kcat = Kcat.withHosts(directory, List.of("bootstrap.kafka.localhost", "broker-1.kafka.localhost"));
        final String[] ssl = {"-b", "bootstrap.kafka.localhost:" + port, "-X", "security.protocol=ssl",
            "-X", "ssl.ca.location=" + certificate};
        final String metadata = kcat.kcat(null, Kcat.with(ssl, "-L", "-t", topic));
        assertTrue(metadata.contains("broker 1 at broker-1.kafka.localhost:" + port), metadata);
        kcat.kcat("key2:world\n", Kcat.with(ssl, "-t", topic, "-K:", "-P"));
        assertEquals("key1:hello\nkey2:world\n", kcat.kcat(null, Kcat.with(ssl, "-t", topic, "-o", "beginning", "-e", "-K:",
            "-C", "-q")));

        final Map<String, Object> consumerConfig = new HashMap<>(config);
        consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        final List<String> consumed = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerConfig, new StringDeserializer(),
            new StringDeserializer()))
        {
            final TopicPartition partition = new TopicPartition(topic, 0);
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            final long deadline = System.nanoTime() + WAIT.toNanos();
            while (consumed.size() < 2 && System.nanoTime() < deadline)
            {
                consumer.poll(Duration.ofMillis(500)).forEach(r -> consumed.add(r.key() + ":" + r.value()));
            }
        }
        assertEquals(List.of("key1:hello", "key2:world"), consumed);
    }

    // the example's own script, as its README runs it, into the temporary copy
    private Path makeKeys() throws Exception
    {
        final ProcessBuilder keystore = new ProcessBuilder("sh", EXAMPLE.resolve("keystore.sh").toString(),
            directory.resolve("tls").toString()).redirectErrorStream(true);
        keystore.environment().put("KEYSTORE_PASSWORD", PASSWORD);
        keystore.environment().put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":"
            + System.getenv("PATH"));
        final Process process = keystore.start();
        final String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS) && process.exitValue() == 0, output);
        final Path certificate = directory.resolve("tls").resolve("kafka.crt");
        assertTrue(Files.exists(directory.resolve("tls").resolve("kafka.p12")) && Files.exists(certificate), output);
        return certificate;
    }
}
