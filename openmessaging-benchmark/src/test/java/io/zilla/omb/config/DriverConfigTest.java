/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import io.zilla.omb.driver.BenchmarkDrivers;
import org.junit.jupiter.api.Test;

class DriverConfigTest
{
    // the shape of OMB's Kafka driver files, with OMB's driver class and a field we ignore (reset)
    private static final String OMB_KAFKA = String.join("\n",
        "name: Kafka",
        "driverClass: io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver",
        "",
        "# Kafka client-specific configuration",
        "replicationFactor: 3",
        "reset: true",
        "",
        "topicConfig: |",
        "  min.insync.replicas=2",
        "",
        "commonConfig: |",
        "  bootstrap.servers=localhost:9092",
        "  request.timeout.ms=120000",
        "",
        "producerConfig: |",
        "  acks=all",
        "  linger.ms=1",
        "  batch.size=1048576",
        "",
        "consumerConfig: |",
        "  auto.offset.reset=earliest",
        "  enable.auto.commit=false",
        "  max.partition.fetch.bytes=10485760",
        "");

    @Test
    void shouldParseOmbKafkaDriver()
    {
        final DriverConfig config = DriverConfig.parse("kafka.yaml", OMB_KAFKA);

        assertEquals("Kafka", config.name());
        assertEquals("io.openmessaging.benchmark.driver.kafka.KafkaBenchmarkDriver", config.driverClass());
        assertEquals(3, config.replicationFactor());
        assertEquals("2", config.topicConfig().getProperty("min.insync.replicas"));
        assertEquals("localhost:9092", config.commonConfig().getProperty("bootstrap.servers"));
        assertEquals("120000", config.commonConfig().getProperty("request.timeout.ms"));
        assertEquals("all", config.producerConfig().getProperty("acks"));
        assertEquals("1048576", config.producerConfig().getProperty("batch.size"));
        assertEquals("earliest", config.consumerConfig().getProperty("auto.offset.reset"));
    }

    @Test
    void shouldStayImmutableAndReplaceBootstrapServers()
    {
        final DriverConfig config = DriverConfig.parse("kafka.yaml", OMB_KAFKA);
        config.commonConfig().setProperty("bootstrap.servers", "changed:1");
        assertEquals("localhost:9092", config.commonConfig().getProperty("bootstrap.servers"));

        final DriverConfig moved = config.withBootstrapServers("127.0.0.1:39092");
        assertEquals("127.0.0.1:39092", moved.commonConfig().getProperty("bootstrap.servers"));
        assertEquals("120000", moved.commonConfig().getProperty("request.timeout.ms"));
        assertEquals("localhost:9092", config.commonConfig().getProperty("bootstrap.servers"));
    }

    @Test
    void shouldParseShippedDriversLatencyTuned() throws IOException
    {
        final List<Path> files;
        try (Stream<Path> list = Files.list(Path.of("driver-kafka")))
        {
            files = list.filter(f -> f.toString().endsWith(".yaml")).sorted().toList();
        }
        assertEquals(4, files.size(), files::toString);
        for (Path file : files)
        {
            final DriverConfig config = DriverConfig.read(file);
            assertEquals("all", config.producerConfig().getProperty("acks"), file::toString);
            assertEquals("1", config.consumerConfig().getProperty("fetch.min.bytes"), file::toString);
        }
        assertEquals("1", DriverConfig.read(Path.of("driver-kafka/kafka-direct.yaml")).producerConfig().getProperty("linger.ms"));
        assertEquals("1", DriverConfig.read(Path.of("driver-kafka/kafka-zilla.yaml")).producerConfig().getProperty("linger.ms"));
        assertEquals("10", DriverConfig.read(Path.of("driver-kafka/kafka-zilla-acks-all-linger-10.yaml"))
            .producerConfig().getProperty("linger.ms"));
    }

    @Test
    void shouldParseShippedSseDrivers()
    {
        final DriverConfig zilla = DriverConfig.read(Path.of("driver-sse/sse-zilla.yaml"));
        assertEquals("io.zilla.omb.driver.sse.SseBenchmarkDriver", zilla.driverClass());
        assertTrue(zilla.throughZilla());
        assertEquals(null, zilla.sse().url());
        assertEquals(2000, zilla.sse().connectionsPerSecond());
        assertEquals("all", zilla.producerConfig().getProperty("acks"));
        final DriverConfig external = DriverConfig.read(Path.of("driver-sse/sse-external.yaml"));
        assertEquals("http://127.0.0.1:7114/{topic}", external.sse().url());
        assertEquals("http://127.0.0.1:9/x/{topic}", zilla.withSseUrl("http://127.0.0.1:9/x/{topic}").sse().url());
    }

    @Test
    void shouldRejectBadSseFields()
    {
        final InvalidConfigException noTopic = assertThrows(InvalidConfigException.class, () -> DriverConfig.parse("sse.yaml",
            "name: sse\ndriverClass: x\nsseUrl: http://127.0.0.1:7114/events\n"));
        assertEquals("sse.yaml: line 3, column 9: sseUrl: must name the topic's place with {topic}, was "
            + "http://127.0.0.1:7114/events", noTopic.getMessage());
        final InvalidConfigException tls = assertThrows(InvalidConfigException.class, () -> DriverConfig.parse("sse.yaml",
            "name: sse\ndriverClass: x\nsseUrl: https://h/{topic}\n"));
        assertTrue(tls.getMessage().contains("must be an http:// URL"), tls.getMessage());
        final InvalidConfigException rate = assertThrows(InvalidConfigException.class, () -> DriverConfig.parse("sse.yaml",
            "name: sse\ndriverClass: x\nsseConnectionsPerSecond: 0\n"));
        assertEquals("sse.yaml: line 3, column 26: sseConnectionsPerSecond: must be between 1 and 1000000, was 0",
            rate.getMessage());
    }

    @Test
    void shouldParseShippedHttpDrivers()
    {
        final DriverConfig h1 = DriverConfig.read(Path.of("driver-http/http-zilla-h1.yaml"));
        assertEquals("io.zilla.omb.driver.http.HttpBenchmarkDriver", h1.driverClass());
        assertTrue(h1.throughZilla());
        assertEquals(null, h1.http().url());
        assertEquals("http/1.1", h1.http().transport());
        assertEquals(256, h1.http().connections());
        assertEquals("kafka", h1.http().consumer());
        final DriverConfig h2c = DriverConfig.read(Path.of("driver-http/http-zilla-h2c.yaml"));
        assertTrue(h2c.http().h2c());
        assertEquals(4, h2c.http().connections());
        assertEquals(100, h2c.http().maxStreams());
        final DriverConfig external = DriverConfig.read(Path.of("driver-http/http-external.yaml"));
        assertEquals("http://127.0.0.1:7114/{topic}/{key}", external.http().url());
        final DriverConfig fetch = DriverConfig.read(Path.of("driver-http/http-zilla-h1-fetch.yaml"));
        assertTrue(fetch.http().fetchConsumer());
        assertEquals(10, fetch.http().fetchWaitSeconds());
        final DriverConfig pointed = fetch.withHttpUrls("http://127.0.0.1:9/{topic}/{key}", "http://127.0.0.1:9/{topic}");
        assertEquals("http://127.0.0.1:9/{topic}/{key}", pointed.http().url());
        assertEquals("http://127.0.0.1:9/{topic}", pointed.http().fetchUrl());
        // an h2c file without httpConnections has one connection, an HTTP/1.1 one a pool
        assertEquals(1, DriverConfig.parse("h.yaml", "name: h\ndriverClass: x\nhttpTransport: h2c\n").http().connections());
        assertEquals(HttpOptions.DEFAULT_H1_CONNECTIONS,
            DriverConfig.parse("h.yaml", "name: h\ndriverClass: x\n").http().connections());
    }

    @Test
    void shouldRejectBadHttpFields()
    {
        assertInvalid("name: h\ndriverClass: x\nhttpUrl: http://127.0.0.1:7114/events\n",
            "line 3, column 10: httpUrl: must name the topic's place with {topic}");
        assertInvalid("name: h\ndriverClass: x\nhttpUrl: https://h/{topic}\n", "httpUrl: must be an http:// URL");
        assertInvalid("name: h\ndriverClass: x\nhttpTransport: h3\n", "httpTransport: must be http/1.1 or h2c, was h3");
        assertInvalid("name: h\ndriverClass: x\nhttpConsumer: sse\n", "httpConsumer: must be kafka or fetch, was sse");
        assertInvalid("name: h\ndriverClass: x\nhttpConnections: 0\n", "httpConnections: must be between 1 and 4096");
        assertInvalid("name: h\ndriverClass: x\nhttpKeyHeader: a b\n", "httpKeyHeader: must be a header name");
    }

    @Test
    void shouldRejectBadValues()
    {
        assertInvalid("driverClass: x\n", "name: required");
        assertInvalid("name: k\n", "driverClass: required");
        assertInvalid("name: k\ndriverClass: x\nreplicationFactor: 0\n",
            "line 3, column 20: replicationFactor: must be between 1 and");
        assertInvalid("name: k\ndriverClass: x\ncommonConfig:\n  a: 1\n", "commonConfig: expected text");
        assertInvalid("name: k\ndriverClass: x\nproducerConfig: |\n  a=\\u00zz\n", "producerConfig: not Java properties text");
    }

    @Test
    void shouldRejectUnknownDriverClass()
    {
        final DriverConfig config = DriverConfig.parse("x.yaml", "name: nope\ndriverClass: com.example.NoSuchDriver\n");
        final InvalidConfigException ex = assertThrows(InvalidConfigException.class, () -> BenchmarkDrivers.create(config));
        assertTrue(ex.getMessage().contains("driverClass: no such class: com.example.NoSuchDriver"), ex.getMessage());
    }

    private static void assertInvalid(String yaml, String expected)
    {
        final InvalidConfigException ex = assertThrows(InvalidConfigException.class, () -> DriverConfig.parse("bad.yaml", yaml));
        assertTrue(ex.getMessage().contains(expected), () -> "expected <" + expected + "> in <" + ex.getMessage() + ">");
    }
}
