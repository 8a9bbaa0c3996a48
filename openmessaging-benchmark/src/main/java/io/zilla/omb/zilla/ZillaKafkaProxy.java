/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.omb.zilla;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;

/**
 * zilla in this JVM as a Kafka proxy in front of one broker ({@code tcp server -> kafka proxy -> tcp client}, the
 * graph of bindings/kafka's proxy tests and benchmark), listening on two free loopback ports: the bootstrap one and
 * node 1's, advertised as {@code 127.0.0.1}. The broker must be a single node (node id 1), as the embedded one is.
 * {@link #cpuNanos()} is the CPU time of zilla's worker threads so far.
 */
public final class ZillaKafkaProxy implements AutoCloseable
{
    static final String HOST = "127.0.0.1";
    static final String WORKER_THREAD_PREFIX = "zilla-worker-";

    private final Path directory;
    private final Engine engine;
    private final int bootstrapPort;

    public ZillaKafkaProxy(String brokerBootstrap, int workers) throws IOException
    {
        this.bootstrapPort = freePort();
        final int nodePort = freePort();
        final String yaml = String.join("\n",
            "---",
            "name: omb",
            "bindings:",
            "  north_tcp_server:",
            "    type: tcp",
            "    kind: server",
            "    options:",
            "      host: " + HOST,
            "      port:",
            "        - " + bootstrapPort,
            "        - " + nodePort,
            "    exit: north_kafka_proxy",
            "  north_kafka_proxy:",
            "    type: kafka",
            "    kind: proxy",
            "    options:",
            "      bootstrap:",
            "        - " + brokerBootstrap,
            "      advertise:",
            "        host: " + HOST,
            "        bootstrap_port: " + bootstrapPort,
            "        ports:",
            "          \"1\": " + nodePort,
            "    exit: south_tcp_client",
            "  south_tcp_client:",
            "    type: tcp",
            "    kind: client",
            "");
        this.directory = Files.createTempDirectory("zilla-omb-");
        final EngineConfiguration configuration = new EngineConfiguration()
            .with(EngineConfiguration.WORKERS, workers)
            .with(EngineConfiguration.DIRECTORY, directory);
        this.engine = Engine.builder().configuration(configuration).config("omb.zilla.yaml", yaml).build();
        engine.start();
    }

    /** zilla's bootstrap address, for the clients. */
    public String bootstrapServers()
    {
        return HOST + ":" + bootstrapPort;
    }

    /** CPU time of zilla's worker threads since they started, in nanoseconds. */
    public static long cpuNanos()
    {
        final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (ThreadInfo info : threads.getThreadInfo(threads.getAllThreadIds()))
        {
            if (info != null && info.getThreadName().startsWith(WORKER_THREAD_PREFIX))
            {
                total += Math.max(0, threads.getThreadCpuTime(info.getThreadId()));
            }
        }
        return total;
    }

    @Override
    public void close() throws IOException
    {
        engine.close();
        try (Stream<Path> files = Files.walk(directory))
        {
            files.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        }
    }

    private static int freePort() throws IOException
    {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(HOST)))
        {
            return socket.getLocalPort();
        }
    }
}
