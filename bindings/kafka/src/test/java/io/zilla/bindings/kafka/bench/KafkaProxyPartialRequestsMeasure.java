/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import static io.zilla.bindings.kafka.test.KafkaProxyFixture.LOOPBACK;

import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.zilla.bindings.kafka.test.KafkaProxyFixture;
import io.zilla.engine.test.EngineExtension;
import io.zilla.kafka.embedded.EmbeddedKafka;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 21's wedge, measured (docs/bindings/kafka.md, "Limits"): 100 connections through the kafka proxy each
 * declare a request of 100 MiB and send 1 MiB of it, in front of a broker of its own with Kafka's default 1 GiB heap;
 * every 5 s for 40 s it prints how many are still open, the broker's RSS and heap (jstat), whether its log has an
 * OutOfMemoryError, zilla's heap, and how long a producer's send through the same proxy takes (negative: failed after
 * that long). Once with the limits out of the way ({@code unlimited}), once with the defaults. Not a test (its name
 * keeps it out of the build's runs): {@code mvn -pl bindings/kafka verify -Dtest=KafkaProxyPartialRequestsMeasure
 * -Dsurefire.failIfNoSpecifiedTests=false}, about 4 minutes, the figures in the surefire report's output.
 */
class KafkaProxyPartialRequestsMeasure
{
    private static final int CONNECTIONS = 100;
    private static final int DECLARED = 104_857_600;
    private static final int SENT = 1024 * 1024;

    @RegisterExtension
    final EngineExtension engine = new EngineExtension();

    @ParameterizedTest
    @ValueSource(strings = {"unlimited", "defaults"})
    void measure(String mode) throws Exception
    {
        try (EmbeddedKafka kafka = new EmbeddedKafka()
            .port(KafkaProxyFixture.freePort())
            .controllerPort(KafkaProxyFixture.freePort())
            .jvmOptions(List.of("-Xmx1g", "-Xms64m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1"))
            .start())
        {
            kafka.createTopic("wedge", 1);
            final KafkaProxyFixture proxy = new KafkaProxyFixture(engine);
            final boolean unlimited = mode.equals("unlimited");
            proxy.start(kafka.bootstrapServers(), "proxy.limits.yaml", Map.of(
                "REQUEST_MAX_BYTES", String.valueOf(DECLARED),
                "REQUEST_TIMEOUT", unlimited ? "1000000000" : "30000",
                "PARTIAL_REQUESTS_MAX_BYTES", unlimited ? "1000000000000" : "268435456"));
            final long pid = kafka.process().pid();
            System.gc();
            print(mode, "before: broker " + brokerMemory(pid) + ", zilla heap " + usedHeapMiB() + " MiB");

            try (KafkaProducer<String, String> producer = new KafkaProducer<>(proxy.clientConfig(Map.of(
                ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 10_000,
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 5_000,
                ProducerConfig.MAX_BLOCK_MS_CONFIG, 10_000,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))))
            {
                print(mode, "send before: " + send(producer) + " ms");
                final List<Socket> sockets = new ArrayList<>();
                for (int i = 0; i < CONNECTIONS; i++)
                {
                    sockets.add(declareAndStall(proxy.bootstrapPort()));
                }
                for (int second = 5; second <= 40; second += 5)
                {
                    Thread.sleep(5_000);
                    System.gc();
                    print(mode, "t+" + second + "s open " + open(sockets) + "/" + CONNECTIONS
                        + ", refused " + proxy.eventCount("kafka.request.refused")
                        + ", timed out " + proxy.eventCount("kafka.request.timeout")
                        + ", broker " + brokerMemory(pid) + ", OutOfMemoryError in broker log " + outOfMemory(kafka)
                        + ", zilla heap " + usedHeapMiB() + " MiB, send " + send(producer) + " ms");
                }
                for (Socket socket : sockets)
                {
                    socket.close();
                }
            }
        }
    }

    // a Metadata v4 header that declares 100 MiB, then 1 MiB of it; a connection refused meanwhile fails the write
    private static Socket declareAndStall(int port) throws IOException
    {
        final Socket socket = new Socket(LOOPBACK, port);
        socket.setSoTimeout(1);
        try
        {
            final DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(DECLARED);
            out.writeShort(3);
            out.writeShort(4);
            out.writeInt(42);
            out.writeShort(1);
            out.writeByte('w');
            out.write(new byte[SENT]);
            out.flush();
        }
        catch (IOException ex)
        {
            // closed by the proxy
        }
        return socket;
    }

    private static int open(List<Socket> sockets)
    {
        int open = 0;
        for (Socket socket : sockets)
        {
            try
            {
                open += socket.getInputStream().read() == -1 ? 0 : 1;
            }
            catch (SocketTimeoutException ex)
            {
                open++;
            }
            catch (IOException ex)
            {
                // reset: closed
            }
        }
        return open;
    }

    private static long send(KafkaProducer<String, String> producer) throws InterruptedException
    {
        final long started = System.nanoTime();
        long took;
        try
        {
            producer.send(new ProducerRecord<>("wedge", "k", "v")).get(15, TimeUnit.SECONDS);
            took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        }
        catch (ExecutionException | TimeoutException ex)
        {
            took = -TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        }
        return took;
    }

    private static long usedHeapMiB()
    {
        final Runtime runtime = Runtime.getRuntime();
        return (runtime.totalMemory() - runtime.freeMemory()) / 1024 / 1024;
    }

    // RSS from ps, heap used (survivors, eden, old) from jstat -gc
    private static String brokerMemory(long pid) throws IOException
    {
        final String rss = new String(new ProcessBuilder("ps", "-o", "rss=", "-p", String.valueOf(pid)).start()
            .getInputStream().readAllBytes()).trim();
        final String[] lines = new String(new ProcessBuilder("jstat", "-gc", String.valueOf(pid)).start()
            .getInputStream().readAllBytes()).trim().split("\n");
        String heap = "heap ?";
        if (lines.length == 2)
        {
            final String[] names = lines[0].trim().split("\\s+");
            final String[] values = lines[1].trim().split("\\s+");
            double used = 0;
            for (int i = 0; i < names.length; i++)
            {
                if (List.of("S0U", "S1U", "EU", "OU").contains(names[i]))
                {
                    used += Double.parseDouble(values[i]);
                }
            }
            heap = "heap " + (long) (used / 1024) + " MiB";
        }
        return "rss " + (rss.isEmpty() ? "gone" : Long.parseLong(rss) / 1024 + " MiB") + ", " + heap;
    }

    private static boolean outOfMemory(EmbeddedKafka kafka) throws IOException
    {
        return Files.exists(kafka.logFile()) && Files.readString(kafka.logFile()).contains("OutOfMemoryError");
    }

    private static void print(String mode, String line)
    {
        System.out.println("partial requests, " + mode + ": " + line);
    }
}
