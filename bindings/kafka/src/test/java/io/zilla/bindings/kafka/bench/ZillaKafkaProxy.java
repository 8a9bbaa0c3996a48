/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.test.FreePorts;

/**
 * zilla in-process as a Kafka proxy in front of one broker: {@code tcp server -> kafka proxy -> tcp client}, as
 * {@code proxy.yaml} of the tests, on two free loopback ports (bootstrap, then node 1), advertised as
 * {@code 127.0.0.1}, in a fresh temporary engine directory. The broker must be a single node (node id 1), as the
 * embedded one is. openmessaging-benchmark runs it too, from this module's test-jar.
 */
public final class ZillaKafkaProxy implements AutoCloseable
{
    static final String HOST = "127.0.0.1";
    public static final String WORKER_THREAD_PREFIX = "zilla-worker-";
    static final String NORTH = "north_tcp_server";
    static final String SOUTH = "south_tcp_client";

    // an experiment's switch: Nagle on zilla's sockets (-Dkafka.bench.tcp.nodelay=false), as a socat relay has by default
    private static final boolean NODELAY = Boolean.parseBoolean(System.getProperty("kafka.bench.tcp.nodelay", "true"));
    // every metric zilla records on this graph (-Dkafka.bench.metrics=true): stream.* on each binding, engine.*
    private static final boolean METRICS = Boolean.getBoolean("kafka.bench.metrics");

    private final Path directory;
    private final Engine engine;
    private final int bootstrapPort;
    private final int nodePort;

    public ZillaKafkaProxy(String brokerBootstrap, int workers) throws IOException
    {
        this(brokerBootstrap, workers, METRICS);
    }

    /** With {@code metrics}, every metric this graph records: stream.* on each binding, and engine.*. */
    public ZillaKafkaProxy(String brokerBootstrap, int workers, boolean metrics) throws IOException
    {
        final String bindingMetrics = metrics ? "    telemetry:\n      metrics:\n        - stream.*" : "";
        this.bootstrapPort = freePort();
        this.nodePort = freePort();
        final String yaml = String.join("\n",
            "---",
            "name: bench",
            metrics ? "telemetry:\n  metrics:\n    - stream.*\n    - engine.*" : "",
            "bindings:",
            "  " + NORTH + ":",
            "    type: tcp",
            "    kind: server",
            "    options:",
            "      host: " + HOST,
            "      nodelay: " + NODELAY,
            "      port:",
            "        - " + bootstrapPort,
            "        - " + nodePort,
            bindingMetrics,
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
            bindingMetrics,
            "    exit: " + SOUTH,
            "  " + SOUTH + ":",
            "    type: tcp",
            "    kind: client",
            "    options:",
            "      nodelay: " + NODELAY,
            bindingMetrics,
            "");
        this.directory = Files.createTempDirectory("zilla-kafka-bench-");
        final EngineConfiguration configuration = new EngineConfiguration()
            .with(EngineConfiguration.WORKERS, workers)
            .with(EngineConfiguration.DIRECTORY, directory);
        this.engine = Engine.builder().configuration(configuration).config("kafka-bench.zilla.yaml", yaml).build();
        engine.start();
    }

    /** The proxy's bootstrap address, for clients. */
    public String bootstrapServers()
    {
        return HOST + ":" + bootstrapPort;
    }

    /**
     * What the named tcp binding read and wrote so far, over every worker: the client side ({@link #NORTH}) or the
     * broker side ({@link #SOUTH}), Kafka framing included.
     */
    TcpTraffic tcpTraffic(String binding)
    {
        try
        {
            TcpTraffic traffic = TcpTraffic.NONE;
            for (Map.Entry<String, Map<String, Long>> entry : EngineCounters.read(directory).entrySet())
            {
                if (entry.getKey().endsWith(binding))
                {
                    final Map<String, Long> counters = entry.getValue();
                    traffic = traffic.plus(new TcpTraffic(counters.getOrDefault("bytes.read", 0L),
                        counters.getOrDefault("bytes.written", 0L), counters.getOrDefault("socket.reads", 0L),
                        counters.getOrDefault("socket.writes", 0L)));
                }
            }
            return traffic;
        }
        catch (IOException ex)
        {
            throw new UncheckedIOException(ex);
        }
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

    static int freePort() throws IOException
    {
        return FreePorts.next();
    }
}
