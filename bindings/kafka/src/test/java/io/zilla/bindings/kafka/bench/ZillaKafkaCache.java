/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Stream;

import io.zilla.engine.Engine;
import io.zilla.engine.EngineConfiguration;
import io.zilla.engine.EngineCounters;
import io.zilla.engine.internal.event.EngineEvent;

/**
 * zilla in-process with the kafka cache and the fan-out benchmark's driver in front of it, the shape of the cache tests'
 * cache.yaml: {@code fanout-bench client -> kafka cache_client -> kafka cache_server -> kafka client -> tcp client}
 * (TCP_NODELAY, as the other benchmarks), {@code workers} workers, the engine's defaults otherwise (16 MiB ring per
 * worker, 64 KiB slots, unless {@code zilla.engine.*} system properties say otherwise), in a fresh temporary
 * directory (the cache's segments under it).
 */
final class ZillaKafkaCache implements AutoCloseable
{
    static final String DRIVER = "bench_app";
    static final String CLIENT = "kafka_client";
    private static final String BENCH_TYPE = "fanout-bench";

    private final List<EngineEvent> events = new CopyOnWriteArrayList<>();
    private final Path directory;
    private final Engine engine;
    private final BenchBinding<FanoutBenchDriver> bench = new BenchBinding<>(BENCH_TYPE, FanoutBenchDriver::new);
    private final int workers;

    ZillaKafkaCache(String brokerBootstrap, int workers) throws IOException
    {
        this(brokerBootstrap, workers, false);
    }

    /** With {@code metrics}, the cache_client, cache_server and client bindings record every kafka.* and stream.* metric. */
    ZillaKafkaCache(String brokerBootstrap, int workers, boolean metrics) throws IOException
    {
        final String namespaceTelemetry = metrics ? "telemetry:\n  metrics:\n    - kafka.*\n    - stream.*\n" : "";
        final String telemetry = metrics ? "    telemetry:\n      metrics:\n        - kafka.*\n        - stream.*\n" : "";
        final String yaml = String.join("\n",
            "---",
            "name: bench",
            namespaceTelemetry + "bindings:",
            "  " + DRIVER + ":",
            "    type: " + BENCH_TYPE,
            "    kind: client",
            "    exit: kafka_cache_client",
            "  kafka_cache_client:",
            "    type: kafka",
            "    kind: cache_client",
            telemetry + "    exit: kafka_cache_server",
            "  kafka_cache_server:",
            "    type: kafka",
            "    kind: cache_server",
            telemetry + "    exit: " + CLIENT,
            "  " + CLIENT + ":",
            "    type: kafka",
            "    kind: client",
            "    options:",
            "      servers:",
            "        - " + brokerBootstrap,
            telemetry + "    exit: tcp_client",
            "  tcp_client:",
            "    type: tcp",
            "    kind: client",
            "    options:",
            "      nodelay: true",
            "");
        this.workers = workers;
        this.directory = Files.createTempDirectory("zilla-kafka-cache-bench-");
        final EngineConfiguration configuration = new EngineConfiguration()
            .with(EngineConfiguration.WORKERS, workers)
            .with(EngineConfiguration.DIRECTORY, directory);
        this.engine = Engine.builder().configuration(configuration).binding(bench)
            .config("kafka-cache-bench.zilla.yaml", yaml).eventListener(events::add).build();
        engine.start();
    }

    int workers()
    {
        return workers;
    }

    /** The engine's events so far (connections, failures), for a run that went wrong. */
    List<String> events()
    {
        return events.stream().map(e -> e.event() + ": " + e.detail()).toList();
    }

    /** Every worker's driver, by worker index. */
    List<FanoutBenchDriver> drivers()
    {
        final List<FanoutBenchDriver> drivers = new ArrayList<>();
        for (int worker = 0; worker < workers; worker++)
        {
            drivers.add(bench.driver(DRIVER, worker));
        }
        return drivers;
    }

    /** A counter of a binding whose name ends with {@code binding}, summed over the workers; 0 when never created. */
    long counter(String binding, String name)
    {
        try
        {
            long value = 0L;
            for (Map.Entry<String, Map<String, Long>> entry : EngineCounters.read(directory).entrySet())
            {
                if (entry.getKey().equals(binding) || entry.getKey().endsWith("." + binding))
                {
                    value += entry.getValue().getOrDefault(name, 0L);
                }
            }
            return value;
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
}
