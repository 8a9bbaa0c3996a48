/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.stream;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.ADVERTISED_HOST;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import io.zilla.bindings.kafka.test.ChildProcess;
import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.bindings.kafka.test.KafkaRecords;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * An older kafka-clients major (3.x, copied into {@code target/kafka-clients-3} by maven-dependency-plugin, never on
 * the test class path) in a child JVM through tcp server, kafka proxy and tcp client to a real broker: it negotiates
 * its own api versions (newer Produce and Fetch than the proxy allows) and still sees only proxy addresses.
 */
@ExtendWith(EmbeddedKafkaExtension.class)
class KafkaProxyLegacyClientTest
{
    private static final Duration CHILD_TIMEOUT = Duration.ofSeconds(120);
    private static final int RECORDS = 50;
    private static final int PARTITIONS = 4;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @TempDir
    Path directory;

    private final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);

    @Test
    void shouldProduceConsumeAndDescribeWithOlderClient(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        proxy.start(kafka);
        final String topic = topics.create(PARTITIONS);
        final String version = System.getProperty("kafka.legacy.version", "3.9.1");
        final Path jars = Path.of(System.getProperty("kafka.legacy.directory", "target/kafka-clients-3"));
        final Path clientJar = jars.resolve("kafka-clients-" + version + ".jar");
        assertTrue(Files.isRegularFile(clientJar), () -> clientJar + " is missing: maven-dependency-plugin copies it "
            + "at generate-test-resources (mvn -pl bindings/kafka -am verify)");

        final List<String> classPath = new ArrayList<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(jars, "*.jar"))
        {
            entries.forEach(jar -> classPath.add(jar.toAbsolutePath().toString()));
        }
        classPath.add(copyMainClass().toString());

        final List<String> command = List.of(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
            "-cp", String.join(File.pathSeparator, classPath),
            KafkaProxyLegacyClientMain.class.getName(),
            proxy.bootstrapServers(), topic, String.valueOf(RECORDS));
        final ChildProcess child = ChildProcess.run(command, null, directory, "kafka-clients-" + version, CHILD_TIMEOUT);

        assertEquals(0, child.exit(), child::describe);
        final List<String> lines = child.out().lines().collect(Collectors.toList());
        assertEquals("version " + version, lines.get(0), child::describe);
        assertEquals("loaded " + clientJar.toAbsolutePath(), lines.get(1), child::describe);
        assertEquals(List.of("node 1 " + ADVERTISED_HOST + ":" + proxy.nodePort()), starting(lines, "node "),
            child::describe);
        assertEquals("done", lines.get(lines.size() - 1), child::describe);
        assertFalse(child.out().contains(":" + kafka.port()), child::describe);

        final Set<String> produced = new TreeSet<>(strip(starting(lines, "produced "), "produced "));
        final Set<String> consumed = new TreeSet<>(strip(starting(lines, "consumed "), "consumed "));
        assertEquals(RECORDS, produced.size(), child::describe);
        assertEquals(RECORDS, starting(lines, "consumed ").size(), child::describe);
        assertEquals(produced, consumed, child::describe);
        final Set<String> expected = new TreeSet<>();
        for (int i = 0; i < RECORDS; i++)
        {
            expected.add("key-" + i + " value-" + i);
        }
        assertEquals(expected, produced.stream().map(KafkaProxyLegacyClientTest::keyAndValue)
            .collect(Collectors.toCollection(TreeSet::new)));

        // the broker itself, read by kafka-clients 4.x directly, holds exactly what the 3.x child reported
        assertEquals(produced, KafkaRecords.readAll(kafka.bootstrapServers(), topic, Duration.ofSeconds(30)).stream()
            .map(KafkaRecords::describe)
            .collect(Collectors.toCollection(TreeSet::new)));
    }

    /** The directory holding only the main class (and its nested classes, if any), in its package directory. */
    private Path copyMainClass() throws Exception
    {
        final Class<?> main = KafkaProxyLegacyClientMain.class;
        final Path testClasses = Path.of(main.getProtectionDomain().getCodeSource().getLocation().toURI());
        final String packagePath = main.getPackageName().replace('.', File.separatorChar);
        final Path source = testClasses.resolve(packagePath);
        final Path classes = directory.resolve("classes");
        final Path target = Files.createDirectories(classes.resolve(packagePath));
        int copied = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(source, main.getSimpleName() + "*.class"))
        {
            for (Path file : files)
            {
                final String name = file.getFileName().toString();
                if (name.equals(main.getSimpleName() + ".class") || name.startsWith(main.getSimpleName() + "$"))
                {
                    Files.copy(file, target.resolve(name));
                    copied++;
                }
            }
        }
        assertTrue(copied > 0, "no class file for " + main + " under " + source);
        return classes;
    }

    private static List<String> starting(List<String> lines, String prefix)
    {
        return lines.stream().filter(l -> l.startsWith(prefix)).collect(Collectors.toList());
    }

    private static List<String> strip(List<String> lines, String prefix)
    {
        return lines.stream().map(l -> l.substring(prefix.length())).collect(Collectors.toList());
    }

    private static String keyAndValue(String record)
    {
        final String[] fields = record.split(" ");
        return fields[0] + " " + fields[1];
    }
}
