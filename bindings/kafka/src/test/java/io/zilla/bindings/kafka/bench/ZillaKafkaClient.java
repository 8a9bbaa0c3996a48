/*
 * Copyright 2026 The zilla authors. Licensed under the Apache License, Version 2.0.
 */
package io.zilla.bindings.kafka.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * zilla in-process with the kafka client binding and the benchmark's driver in front of it:
 * {@code client-bench client -> kafka client -> tcp client} (TCP_NODELAY, as the proxy benchmark), one worker, the
 * engine's defaults otherwise (64 KiB buffer slots unless {@code zilla.engine.buffer.slot.capacity} says otherwise),
 * in a fresh temporary directory.
 */
final class ZillaKafkaClient implements AutoCloseable
{
    static final String DRIVER = "bench_driver";
    static final String CLIENT = "kafka_client";
    private static final String BENCH_TYPE = "client-bench";

    private final List<EngineEvent> events = new CopyOnWriteArrayList<>();
    private final Path directory;
    private final Engine engine;
    private final BenchBinding<ClientBenchDriver> bench = new BenchBinding<>(BENCH_TYPE, ClientBenchDriver::new);

    ZillaKafkaClient(String brokerBootstrap, String compression) throws IOException
    {
        this(brokerBootstrap, compression, false);
    }

    /** With {@code metrics}, the kafka client binding records every kafka.* and stream.* metric. */
    ZillaKafkaClient(String brokerBootstrap, String compression, boolean metrics) throws IOException
    {
        final String namespaceTelemetry = metrics ? "telemetry:\n  metrics:\n    - kafka.*\n    - stream.*\n" : "";
        final String bindingTelemetry = metrics ? "    telemetry:\n      metrics:\n        - kafka.*\n        - stream.*\n" : "";
        final String yaml = String.join("\n",
            "---",
            "name: bench",
            namespaceTelemetry + "bindings:",
            "  " + DRIVER + ":",
            "    type: " + BENCH_TYPE,
            "    kind: client",
            "    exit: " + CLIENT,
            "  " + CLIENT + ":",
            "    type: kafka",
            "    kind: client",
            "    options:",
            "      servers:",
            "        - " + brokerBootstrap,
            "      compression: " + compression,
            bindingTelemetry + "    exit: tcp_client",
            "  tcp_client:",
            "    type: tcp",
            "    kind: client",
            "    options:",
            "      nodelay: true",
            "");
        this.directory = Files.createTempDirectory("zilla-kafka-client-bench-");
        final EngineConfiguration configuration = new EngineConfiguration()
            .with(EngineConfiguration.WORKERS, 1)
            .with(EngineConfiguration.DIRECTORY, directory);
        this.engine = Engine.builder().configuration(configuration).binding(bench)
            .config("kafka-client-bench.zilla.yaml", yaml).eventListener(events::add).build();
        engine.start();
    }

    /** The engine's events so far (connections, failures), for a run that went wrong. */
    List<String> events()
    {
        return events.stream().map(e -> e.event() + ": " + e.detail()).toList();
    }

    ClientBenchDriver driver()
    {
        return bench.driver(DRIVER, 0);
    }

    /** A counter of the kafka client binding (produce.requests, produce.records...), 0 when never created. */
    long counter(String name)
    {
        try
        {
            long value = 0L;
            for (Map.Entry<String, Map<String, Long>> entry : EngineCounters.read(directory).entrySet())
            {
                if (entry.getKey().endsWith(CLIENT))
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
