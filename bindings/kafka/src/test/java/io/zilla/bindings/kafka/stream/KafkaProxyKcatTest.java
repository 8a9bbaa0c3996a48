/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.ADVERTISED_HOST;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import io.zilla.bindings.kafka.test.ChildProcess;
import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.bindings.kafka.test.KafkaRecords;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * kcat (librdkafka: a C client with its own choice of api versions and its own partitioner) through tcp server,
 * kafka proxy and tcp client to a real broker. kcat must be installed ({@code .ci/run} installs it): without it
 * these tests fail, they do not skip.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyKcatTest
{
    private static final Duration KCAT_TIMEOUT = Duration.ofSeconds(60);
    private static final int RECORDS = 60;
    private static final int PARTITIONS = 4;
    private static final Pattern BROKER = Pattern.compile("^\\s*broker (-?\\d+) at (\\S+):(\\d+)", Pattern.MULTILINE);
    private static final Pattern PARTITION = Pattern.compile("^\\s*partition (\\d+), leader (-?\\d+),", Pattern.MULTILINE);
    private static final Pattern ADDRESS = Pattern.compile("(?:localhost|127\\.0\\.0\\.1):(\\d+)");

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @TempDir
    Path directory;

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    private Path kcat;
    private int runs;

    @BeforeEach
    void findKcat()
    {
        kcat = kcatExecutable();
    }

    @Test
    void shouldListOnlyProxyAddresses(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(PARTITIONS);

        final ChildProcess listed = kcat(null, "-b", proxy.bootstrapServers(), "-L", "-t", topic);

        assertEquals(0, listed.exit(), listed::describe);
        final List<String> brokers = new ArrayList<>();
        final Matcher broker = BROKER.matcher(listed.out());
        while (broker.find())
        {
            brokers.add(broker.group(1) + " " + broker.group(2) + ":" + broker.group(3));
        }
        assertEquals(List.of("1 " + ADVERTISED_HOST + ":" + proxy.nodePort()), brokers, listed::describe);
        assertTrue(listed.out().contains("topic \"" + topic + "\" with " + PARTITIONS + " partitions"), listed::describe);
        final Set<String> partitions = new TreeSet<>();
        final Matcher partition = PARTITION.matcher(listed.out());
        while (partition.find())
        {
            assertEquals("1", partition.group(2), listed::describe);
            partitions.add(partition.group(1));
        }
        assertEquals(Set.of("0", "1", "2", "3"), partitions, listed::describe);
        assertNoBrokerAddress(kafka, listed.out(), listed);
    }

    @Test
    void shouldProduceAndConsumeKeyedRecords(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(PARTITIONS);
        final Set<String> sent = new TreeSet<>();
        final StringBuilder input = new StringBuilder();
        for (int i = 0; i < RECORDS; i++)
        {
            final String key = "key-" + i;
            final String value = "value-" + i + "-" + "x".repeat(i * 7);
            sent.add(key + " " + value);
            input.append(key).append(':').append(value).append('\n');
        }
        final Path records = Files.writeString(directory.resolve("records.txt"), input, UTF_8);

        // -d broker: librdkafka logs every address it connects to, so the test sees it never went around the proxy
        final ChildProcess produced = kcat(records, "-b", proxy.bootstrapServers(), "-t", topic,
            "-P", "-K:", "-X", "acks=all", "-d", "broker");
        assertEquals(0, produced.exit(), produced::describe);
        assertFalse(produced.err().contains("Failed to produce"), produced::describe);
        assertFalse(produced.err().contains("Delivery failed"), produced::describe);
        assertTrue(produced.err().contains(ADVERTISED_HOST + ":" + proxy.nodePort()), produced::describe);
        assertNoBrokerAddress(kafka, produced.err(), produced);

        final ChildProcess consumed = kcat(null, "-b", proxy.bootstrapServers(), "-t", topic,
            "-C", "-e", "-o", "beginning", "-f", "%k %s %p %o\\n");
        assertEquals(0, consumed.exit(), consumed::describe);
        final List<String> lines = consumed.out().lines().filter(l -> !l.isBlank()).collect(Collectors.toList());
        assertEquals(RECORDS, lines.size(), consumed::describe);

        // kafka-clients, straight from the broker: the same keys, values, partitions and offsets as kcat consumed
        final Set<String> landed = KafkaRecords.readAll(kafka.bootstrapServers(), topic, Duration.ofSeconds(30)).stream()
            .map(KafkaRecords::describe)
            .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(landed, new TreeSet<>(lines), consumed::describe);

        final Set<String> keysAndValues = new TreeSet<>();
        final Set<String> partitionsUsed = new HashSet<>();
        for (String line : lines)
        {
            final String[] fields = line.split(" ");
            assertEquals(4, fields.length, line);
            keysAndValues.add(fields[0] + " " + fields[1]);
            partitionsUsed.add(fields[2]);
        }
        assertEquals(sent, keysAndValues);
        assertTrue(partitionsUsed.size() > 1, () -> "keyed records spread over partitions: " + partitionsUsed);
    }

    @Test
    void shouldConsumeAsGroupMember(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(PARTITIONS);
        final String group = topic + "-group";
        final Set<String> sent = new TreeSet<>();
        final Map<String, Object> config = Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG, "all",
            ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
            ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(config))
        {
            for (int i = 0; i < RECORDS; i++)
            {
                final RecordMetadata metadata = producer.send(new ProducerRecord<>(topic, "key-" + i, "value-" + i))
                    .get(30, TimeUnit.SECONDS);
                sent.add("key-" + i + " value-" + i + " " + metadata.partition() + " " + metadata.offset());
            }
        }

        // a balanced consumer: FindCoordinator, JoinGroup, SyncGroup, OffsetCommit, all through the proxy
        final ChildProcess consumed = kcat(null, "-b", proxy.bootstrapServers(), "-X", "auto.offset.reset=earliest",
            "-e", "-f", "%k %s %p %o\\n", "-d", "cgrp", "-G", group, topic);
        assertEquals(0, consumed.exit(), consumed::describe);
        final List<String> lines = consumed.out().lines().filter(l -> !l.isBlank()).collect(Collectors.toList());
        assertEquals(sent, new TreeSet<>(lines), consumed::describe);
        assertEquals(RECORDS, lines.size(), consumed::describe);
        assertNoBrokerAddress(kafka, consumed.err(), consumed);

        // the group's offsets, committed by kcat on close, as the broker itself has them
        try (Admin admin = kafka.admin())
        {
            final Map<TopicPartition, OffsetAndMetadata> committed = admin.listConsumerGroupOffsets(group)
                .partitionsToOffsetAndMetadata().get(30, TimeUnit.SECONDS);
            long total = 0;
            for (OffsetAndMetadata offset : committed.values())
            {
                total += offset.offset();
            }
            assertEquals(RECORDS, total, () -> committed + "\n" + consumed.describe());
        }
    }

    /** Neither the broker's port nor its controller's appears: kcat only learned and used the proxy's addresses. */
    private static void assertNoBrokerAddress(EmbeddedKafka kafka, String output, ChildProcess kcat)
    {
        final Matcher address = ADDRESS.matcher(output);
        while (address.find())
        {
            final int port = Integer.parseInt(address.group(1));
            final String found = address.group();
            assertFalse(port == kafka.port() || port == kafka.controllerPort(),
                () -> "kcat saw the broker's own address " + found + "\n" + kcat.describe());
        }
    }

    private ChildProcess kcat(Path stdin, String... args) throws Exception
    {
        final List<String> command = new ArrayList<>();
        command.add(kcat.toString());
        // the proxy listens on 127.0.0.1 only and advertises localhost: never try ::1
        command.add("-X");
        command.add("broker.address.family=v4");
        command.addAll(List.of(args));
        return ChildProcess.run(command, stdin, directory, "kcat-" + ++runs, KCAT_TIMEOUT);
    }

    private static Path kcatExecutable()
    {
        final String path = System.getenv().getOrDefault("PATH", "");
        for (String entry : path.split(Pattern.quote(File.pathSeparator)))
        {
            final Path candidate = Path.of(entry.isEmpty() ? "." : entry, "kcat");
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate))
            {
                return candidate;
            }
        }
        return fail("kcat is not installed (not found on PATH=" + path + "), and this test needs it: "
            + "apt-get install kcat (.ci/run installs it when missing)");
    }
}
