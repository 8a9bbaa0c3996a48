/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.http.kafka.stream;

import static io.zilla.bindings.http.kafka.stream.HttpKafkaTesting.records;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import io.zilla.engine.test.EngineExtension;
import io.zilla.engine.test.FreePorts;
import io.zilla.kafka.embedded.EmbeddedKafka;
import io.zilla.kafka.embedded.EmbeddedKafkaExtension;
import io.zilla.kafka.embedded.KafkaTopics;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** curl as the client: a chunked PUT over HTTP/1.1, then GETs over h2c with prior knowledge, as the examples' READMEs do. */
@ExtendWith(EmbeddedKafkaExtension.class)
class HttpKafkaCurlTest
{
    @RegisterExtension
    final EngineExtension engine = new EngineExtension().anchor(HttpKafkaProxyTest.class);

    @TempDir
    Path directory;

    @Test
    void shouldPutChunkedThenGetOverH2cWithCurl(EmbeddedKafka kafka, KafkaTopics topics) throws Exception
    {
        final String topic = topics.create(2);
        final int port = FreePorts.next();
        engine.env("PORT", Integer.toString(port)).env("BODY", Integer.toString(1 << 20))
            .env("KAFKA_BOOTSTRAP", kafka.bootstrapServers()).env("TOPIC", topic).env("REQUESTS", topics.create())
            .env("RESPONSES", topics.create()).env("WAIT", "10000").start("proxy.yaml");
        final String base = "http://127.0.0.1:" + port;
        final byte[] value = new byte[20_000];
        new Random(3).nextBytes(value);
        final Path body = Files.write(directory.resolve("body.bin"), value);

        final String put = curl("-X", "PUT", "-H", "transfer-encoding: chunked", "-H", "content-type: application/octet-stream",
            "--data-binary", "@" + body, "-w", "%{http_code}", "-o", "/dev/null", base + "/items/c");
        assertEquals("204", put);
        final Path got = directory.resolve("got.bin");
        final String get = curl("--http2-prior-knowledge", "-D", "-", "-o", got.toString(), base + "/items/c");
        assertTrue(get.startsWith("HTTP/2 200"), get);
        assertTrue(get.contains("content-type: application/octet-stream"), get);
        assertTrue(get.contains("etag: \""), get);
        assertArrayEquals(value, Files.readAllBytes(got));
        assertTrue(curl("--http2-prior-knowledge", "-D", "-", "-o", "/dev/null", base + "/items/other").startsWith("HTTP/2 404"));

        final List<ConsumerRecord<byte[], byte[]>> records = records(kafka, topic, 1);
        assertEquals(1, records.size());
        assertEquals("c", new String(records.get(0).key(), UTF_8));
        assertArrayEquals(value, records.get(0).value());
    }

    private static String curl(String... args) throws Exception
    {
        final List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "30"));
        command.addAll(List.of(args));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        final String out = new String(process.getInputStream().readAllBytes(), UTF_8);
        assertTrue(process.waitFor(40, TimeUnit.SECONDS), "curl ended");
        assertEquals(0, process.exitValue(), out);
        return out;
    }
}
